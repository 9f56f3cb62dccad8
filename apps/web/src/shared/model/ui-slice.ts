import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { loggedOut } from './session';

/** Breakpoints of the spec: mobile under 768 px, tablet 768-1279, desktop 1280 and up. */
export const TABLET_MIN_WIDTH = 768;
export const DESKTOP_MIN_WIDTH = 1280;

export interface UiState {
  displayMenu: boolean;
  displayModal: boolean;
  displayLoader: boolean;
  windowWidth: number;
  windowHeight: number;
}

function initialUiState(): UiState {
  const hasWindow = typeof window !== 'undefined';
  return {
    displayMenu: false,
    displayModal: false,
    displayLoader: false,
    windowWidth: hasWindow ? window.innerWidth : DESKTOP_MIN_WIDTH,
    windowHeight: hasWindow ? window.innerHeight : 800,
  };
}

export const uiSlice = createSlice({
  name: 'ui',
  initialState: initialUiState,
  reducers: {
    menuDisplayed(state, action: PayloadAction<boolean>) {
      state.displayMenu = action.payload;
    },
    modalDisplayed(state, action: PayloadAction<boolean>) {
      state.displayModal = action.payload;
    },
    loaderDisplayed(state, action: PayloadAction<boolean>) {
      state.displayLoader = action.payload;
    },
    windowResized(state, action: PayloadAction<{ width: number; height: number }>) {
      state.windowWidth = action.payload.width;
      state.windowHeight = action.payload.height;
    },
  },
  extraReducers: (builder) => {
    // the window keeps its size; the overlays go
    builder.addCase(loggedOut, (state) => {
      state.displayMenu = false;
      state.displayModal = false;
      state.displayLoader = false;
    });
  },
});

export const { menuDisplayed, modalDisplayed, loaderDisplayed, windowResized } = uiSlice.actions;
export const uiReducer = uiSlice.reducer;

type WithUi = { ui: UiState };
export const selectDisplayMenu = (state: WithUi) => state.ui.displayMenu;
export const selectIsMobile = (state: WithUi) => state.ui.windowWidth < TABLET_MIN_WIDTH;
export const selectIsTablet = (state: WithUi) =>
  state.ui.windowWidth >= TABLET_MIN_WIDTH && state.ui.windowWidth < DESKTOP_MIN_WIDTH;
export const selectIsDesktop = (state: WithUi) => state.ui.windowWidth >= DESKTOP_MIN_WIDTH;
/** Page scrolling is locked while the menu, the loader or a modal shows. */
export const selectScrollLocked = (state: WithUi) =>
  state.ui.displayMenu || state.ui.displayModal || state.ui.displayLoader;
