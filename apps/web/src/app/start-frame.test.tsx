import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../test/fetch-stub';
import { testUser } from '../test/fixtures';
import { renderApp } from '../test/render';
import { signedInRoutes } from './router';
import { endStartFrame, StartFallback, startContainer } from './start-frame';

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

/** The start as main.tsx renders it: `fallbacks` of them, then `page` once it is given. */
function Start({ fallbacks, page }: { fallbacks: string[]; page?: string }) {
  return page ? <p>{page}</p> : fallbacks.map((key) => <StartFallback key={key} />);
}

afterEach(() => {
  endStartFrame();
  document.getElementById('root')?.remove();
  document.body.replaceChildren();
});

describe('the start frame', () => {
  it("keeps what index.html painted, node for node, while head.js shows the home's frame", () => {
    const root = paintIndexHtml(true);
    const lead = root.querySelector('.boot-home-lead');
    const container = startContainer();
    // the console renders beside the frame, which stays as the browser painted it
    expect(container).not.toBe(root);
    expect(root.nextElementSibling).toBe(container);
    render(<StartFallback />, { container });
    expect(container).toBeEmptyDOMElement();
    expect(screen.queryByTestId('full-screen-spinner')).toBeNull();
    expect(document.querySelector('.boot-home-lead')).toBe(lead);
    expect(document.documentElement.dataset.boot).toBe('home');
  });

  it('ends in the commit in which the last fallback gives way to a page', async () => {
    const root = paintIndexHtml(true);
    const container = startContainer();
    const { rerender } = render(<Start fallbacks={['restore']} />, { container });
    // the session's restore gives way to the routes' first load: the frame stays
    await act(async () => rerender(<Start fallbacks={['routes']} />));
    expect(root.isConnected).toBe(true);
    expect(document.documentElement.dataset.boot).toBe('home');
    // the page (the signed-in layout, or /login when the session could not be restored)
    await act(async () => rerender(<Start fallbacks={[]} page="Sign in" />));
    expect(root.isConnected).toBe(false);
    expect(container.id).toBe('root');
    expect(container).toHaveTextContent('Sign in');
    expect(document.documentElement.dataset.boot).toBeUndefined();
    // later loads show the spinner
    await act(async () => rerender(<Start fallbacks={['later']} />));
    expect(screen.getByTestId('full-screen-spinner')).toBeInTheDocument();
  });

  it('is the spinner, in #root itself, when head.js did not show the frame (another page, signed out)', () => {
    const root = paintIndexHtml(false);
    expect(startContainer()).toBe(root);
    render(<StartFallback />);
    expect(screen.getByTestId('full-screen-spinner')).toBeInTheDocument();
  });

  it('is the spinner again once the signed-in layout has rendered, and the frame is gone', async () => {
    const root = paintIndexHtml(true);
    startContainer();
    stubFetch({
      'GET /user/auth': { body: testUser },
      'GET /user/vps/servers': { body: { data: [], meta: { total: 0, page: 1, per_page: 20 } } },
    });
    await renderApp({ routes: signedInRoutes, path: '/vps', signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    expect(root.isConnected).toBe(false);
    expect(document.documentElement.dataset.boot).toBeUndefined();
    render(<StartFallback />);
    expect(screen.getByTestId('full-screen-spinner')).toBeInTheDocument();
  });
});
