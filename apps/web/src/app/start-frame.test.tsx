import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../test/fetch-stub';
import { testUser } from '../test/fixtures';
import { renderApp } from '../test/render';
import { signedInRoutes } from './router';
import { endStartFrame, keepStartFrame, StartFallback } from './start-frame';

/** #root as index.html paints it: the header's bar, and the home page's frame (head.js shows it). */
function paintIndexHtml(showsHome: boolean): HTMLElement {
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML =
    '<div class="boot-bar" aria-hidden="true"><span>TradeHost</span></div>' +
    '<div class="boot-home" aria-hidden="true"><div class="boot-home-page" lang="en">' +
    '<div class="boot-home-title">VPS servers</div><div class="boot-home-lead">Order a server</div>' +
    '</div></div>';
  document.body.append(root);
  if (showsHome) document.documentElement.dataset.boot = 'home';
  return root;
}

afterEach(() => {
  endStartFrame();
  document.getElementById('root')?.remove();
});

describe('StartFallback', () => {
  it("keeps what index.html painted while head.js shows the home's frame", () => {
    const root = paintIndexHtml(true);
    keepStartFrame();
    // the first render replaces #root's content; the fallback draws the same again
    root.replaceChildren();
    render(<StartFallback />);
    const frame = screen.getByTestId('start-frame');
    expect(frame.querySelector('.boot-home-title')).toHaveTextContent('VPS servers');
    expect(frame.querySelector('.boot-home-lead')).toHaveTextContent('Order a server');
    expect(frame.querySelector('.boot-bar')).not.toBeNull();
    expect(screen.queryByTestId('full-screen-spinner')).toBeNull();
  });

  it('is the spinner when head.js did not show the frame (another page, signed out)', () => {
    paintIndexHtml(false);
    keepStartFrame();
    render(<StartFallback />);
    expect(screen.getByTestId('full-screen-spinner')).toBeInTheDocument();
    expect(screen.queryByTestId('start-frame')).toBeNull();
  });

  it('is the spinner again once the signed-in layout has rendered, and the frame is hidden', async () => {
    paintIndexHtml(true);
    keepStartFrame();
    stubFetch({
      'GET /user/auth': { body: testUser },
      'GET /user/vps/servers': { body: { data: [], meta: { total: 0, page: 1, per_page: 20 } } },
    });
    await renderApp({ routes: signedInRoutes, path: '/vps', signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    expect(document.documentElement.dataset.boot).toBeUndefined();
    render(<StartFallback />);
    expect(screen.getByTestId('full-screen-spinner')).toBeInTheDocument();
  });
});
