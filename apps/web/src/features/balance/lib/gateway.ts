import type { Checkout } from '@tradehost/contracts';

/**
 * Sends the browser to the payment gateway the way gateways expect it: a real form with the
 * order's fields as hidden inputs, submitted with the gateway's HTTP method to its address (a
 * top-level navigation, not a fetch: the gateway shows its own page and later sends the reader
 * back to /balance-operations?payment=<id>). Returns the form, already submitted.
 */
export function submitToGateway(checkout: Checkout, doc: Document = document): HTMLFormElement {
  const form = doc.createElement('form');
  form.method = checkout.http_method.toLowerCase();
  form.action = checkout.url;
  form.acceptCharset = 'UTF-8';
  form.hidden = true;
  for (const [name, value] of Object.entries(checkout.fields)) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  doc.body.append(form);
  form.submit();
  return form;
}
