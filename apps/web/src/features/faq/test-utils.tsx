/**
 * Test helpers of the FAQ page: the page signed in on a memory router (src/test/render) with a
 * stand-in support page to land on, its API stubbed at the global fetch (src/test/fetch-stub).
 */
import type { FaqItem } from '@tradehost/contracts';
import { useLocation } from 'react-router';
import { stubFetch, type Handler } from '../../test/fetch-stub';
import { renderSignedInPage, type RenderPageOptions } from '../../test/render';
import { Component as FaqPage } from './pages/faq-page';
import { FAQ_ITEMS } from './test-fixtures';

export { FAQ_ITEMS } from './test-fixtures';
export { deferred, type Handler } from '../../test/fetch-stub';

/** GET /user/faq answering `items` (the fixtures by default); `routes` replace. */
export function stubFaqApi(items: FaqItem[] = FAQ_ITEMS, routes: Record<string, Handler> = {}) {
  return stubFetch({ 'GET /user/faq': { body: { data: items } }, ...routes });
}

function SupportStandIn() {
  const location = useLocation();
  return <h1>Support {location.search}</h1>;
}

/** The FAQ page at `path` (/faq, /faq?q=…, /faq#slug), signed in. */
export function renderFaq(path = '/faq', options: RenderPageOptions = {}) {
  return renderSignedInPage(
    [
      { path: '/faq', Component: FaqPage },
      { path: '/support', Component: SupportStandIn },
    ],
    path,
    'faq-test-token',
    options,
  );
}
