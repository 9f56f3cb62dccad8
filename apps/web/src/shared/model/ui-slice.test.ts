import { describe, expect, it } from 'vitest';
import { loggedOut } from './session';
import {
  loaderDisplayed,
  menuDisplayed,
  selectIsDesktop,
  selectIsMobile,
  selectIsTablet,
  selectScrollLocked,
  uiReducer,
  windowResized,
} from './ui-slice';

const at = (width: number) => ({ ui: uiReducer(undefined, windowResized({ width, height: 800 })) });

describe('ui slice', () => {
  it('puts the breakpoints at 768 and 1280', () => {
    expect([selectIsMobile(at(767)), selectIsTablet(at(767)), selectIsDesktop(at(767))]).toEqual([
      true,
      false,
      false,
    ]);
    expect([selectIsMobile(at(768)), selectIsTablet(at(768)), selectIsDesktop(at(768))]).toEqual([
      false,
      true,
      false,
    ]);
    expect([selectIsMobile(at(1279)), selectIsTablet(at(1279)), selectIsDesktop(at(1279))]).toEqual(
      [false, true, false],
    );
    expect([selectIsMobile(at(1280)), selectIsTablet(at(1280)), selectIsDesktop(at(1280))]).toEqual(
      [false, false, true],
    );
  });

  it('locks the scroll while the menu, the loader or a modal shows', () => {
    const idle = uiReducer(undefined, { type: 'init' });
    expect(selectScrollLocked({ ui: idle })).toBe(false);
    expect(selectScrollLocked({ ui: uiReducer(idle, menuDisplayed(true)) })).toBe(true);
    expect(selectScrollLocked({ ui: uiReducer(idle, loaderDisplayed(true)) })).toBe(true);
    expect(selectScrollLocked({ ui: { ...idle, displayModal: true } })).toBe(true);
  });

  it('closes the overlays on logout and keeps the window size', () => {
    let state = uiReducer(undefined, windowResized({ width: 500, height: 700 }));
    state = uiReducer(state, menuDisplayed(true));
    state = uiReducer(state, loaderDisplayed(true));
    state = uiReducer(state, loggedOut());
    expect(state).toMatchObject({
      displayMenu: false,
      displayLoader: false,
      windowWidth: 500,
      windowHeight: 700,
    });
  });
});
