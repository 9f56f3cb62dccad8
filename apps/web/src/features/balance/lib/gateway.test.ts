import type { Checkout } from '@tradehost/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { submitToGateway } from './gateway';

const checkout: Checkout = {
  url: 'https://pay.example.com/merchant/?lang=en',
  http_method: 'POST',
  fields: {
    m_shop: '1234',
    m_orderid: '41',
    m_amount: '25.00',
    m_desc: 'VGFzdA==',
    m_sign: 'Z&"<>',
  },
  order_id: '41',
  order_sum: '25.00',
  currency: 'USD',
  signature: 'Z&"<>',
};

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('submitToGateway', () => {
  it('submits a form of hidden inputs to the gateway with its method', () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    const form = submitToGateway(checkout);

    expect(submit).toHaveBeenCalledTimes(1);
    expect(submit.mock.contexts[0]).toBe(form);
    // in the document (a form outside it is not submitted), hidden
    expect(form.isConnected).toBe(true);
    expect(form.hidden).toBe(true);
    expect(form.getAttribute('action')).toBe(checkout.url);
    expect(form.method).toBe('post');
    expect(form.acceptCharset).toBe('UTF-8');
    const inputs = Array.from(form.elements) as HTMLInputElement[];
    expect(inputs.map((input) => [input.type, input.name, input.value])).toEqual(
      Object.entries(checkout.fields).map(([name, value]) => ['hidden', name, value]),
    );
    // values are set as properties, never as markup
    expect(form.querySelector('input[name="m_sign"]')).toHaveValue('Z&"<>');
  });

  it('uses GET when the gateway asks for it', () => {
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    const form = submitToGateway({ ...checkout, http_method: 'GET' });
    expect(form.method).toBe('get');
  });
});
