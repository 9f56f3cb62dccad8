import {
  CURRENCY,
  centsToDollars,
  formatCents,
  MAX_AMOUNT_CENTS,
  SUCCESS_MESSAGES,
  type CryptoTopUpResponse,
  type CryptoWalletResponse,
  type DepositResponse,
  type GatewayMethod,
  type HistoryFilter,
  type HistoryKind,
  type Page,
  type PaymentMethodInfo,
  type PaymentMethodsResponse,
  type PaymentResponse,
  type TransferPreviewResponse,
} from '@tradehost/contracts';
import type { Executor } from '../../db/client.ts';
import { inTransaction, TransactionRetriesExhausted, type Tx } from '../../db/transaction.ts';
import { gatewayFor } from '../../integrations/payments/index.ts';
import {
  GatewaySignatureError,
  type GatewayAck,
  type GatewayId,
  type PaymentGateway,
} from '../../integrations/payments/port.ts';
import { qrDataUrl } from '../../lib/qr.ts';
import { csvFile, type CsvValue } from '../../lib/csv.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { ServiceDeps } from '../deps.ts';
import type { Outcome, StatementWork } from '../../plugins/idempotency.ts';
import { userRepository } from '../../db/users.ts';
import { auditRepository } from '../../db/audit.ts';
import { createCreditNotices } from './balance.credits.ts';
import { createCryptoTopUps } from './crypto.service.ts';
import { toCharge, toPayment, toTransfer, toWithdrawal } from './balance.mapper.ts';
import { pagingOf } from '../../db/paging.ts';
import { balanceRepository, type Period, type TransferFacts } from './balance.repository.ts';
import {
  isNegativeBalance,
  ledgerRepository,
  publishBalances,
  toPostedEntry,
} from '../../db/ledger.ts';

/** The largest card or e-wallet top-up; crypto and balance moves go up to MAX_AMOUNT_CENTS. */
export const GATEWAY_MAX_CENTS = 1_000_000;
/** Rows in one CSV export. */
export const CSV_MAX_ROWS = 50_000;

export interface BalanceDeps extends ServiceDeps {
  gateways: Map<GatewayId, PaymentGateway>;
}

/** True when a statement failed because it would take a purse of the users table below zero. */

/** A period end as a date PostgreSQL takes: it has no year 0 ("0000-01-01T00:00:00Z" is 1 BC). */
function periodEnd(field: 'from' | 'to', iso: string): Date {
  const date = new Date(iso);
  if (date.getUTCFullYear() < 1) throw fieldError(422, field, 'PERIOD_INVALID');
  return date;
}

const periodOf = (filter: HistoryFilter): Period => ({
  ...(filter.from ? { from: periodEnd('from', filter.from) } : {}),
  ...(filter.to ? { to: periodEnd('to', filter.to) } : {}),
});

export type BalanceService = ReturnType<typeof createBalanceService>;

export function createBalanceService(deps: BalanceDeps) {
  const { db, config, gateways, log } = deps;
  const { minimumCents, cryptoWallets } = config.payments;
  const credits = createCreditNotices(deps);
  const crypto = createCryptoTopUps(deps);

  /** Each method's limits in cents and whether it can be used; the configuration fixes them. */
  const limits: Record<keyof typeof minimumCents, { max: number; available: boolean }> = {
    card: { max: GATEWAY_MAX_CENTS, available: gatewayFor(gateways, 'card') !== undefined },
    ewallet: { max: GATEWAY_MAX_CENTS, available: gatewayFor(gateways, 'ewallet') !== undefined },
    crypto: { max: MAX_AMOUNT_CENTS, available: cryptoWallets.length > 0 },
    balance: { max: MAX_AMOUNT_CENTS, available: true },
  };
  const methods: PaymentMethodInfo[] = (['card', 'ewallet', 'crypto', 'balance'] as const).map(
    (id) => ({
      id,
      min: centsToDollars(minimumCents[id]),
      max: centsToDollars(limits[id].max),
      available: limits[id].available,
      ...(id === 'crypto'
        ? { networks: cryptoWallets.map(({ id: network, name }) => ({ id: network, name })) }
        : {}),
    }),
  );

  function checkLimits(method: keyof typeof minimumCents, amountCents: number) {
    if (!limits[method].available) throw fieldError(422, 'method', 'METHOD_UNAVAILABLE');
    if (amountCents < minimumCents[method]) throw fieldError(422, 'amount', 'AMOUNT_BELOW_MINIMUM');
    if (amountCents > limits[method].max) throw fieldError(422, 'amount', 'AMOUNT_ABOVE_MAXIMUM');
  }

  function walletOf(network: string) {
    const wallet = cryptoWallets.find((w) => w.id === network.trim().toUpperCase());
    if (!wallet) throw fieldError(422, 'network', 'NETWORK_UNKNOWN');
    return wallet;
  }

  /** Inside a transaction pass it as `on`: a second pool connection per request can starve the pool. */
  async function userOf(userId: number, on: Executor = db) {
    const user = await userRepository.findById(on, userId);
    if (!user) throw new AppError(401, 'UNAUTHORIZED');
    return user;
  }

  return {
    methods(): PaymentMethodsResponse {
      return { currency: CURRENCY, methods };
    },

    async cryptoWallet(network: string): Promise<CryptoWalletResponse> {
      const wallet = walletOf(network);
      return {
        network: wallet.id,
        address: wallet.address,
        wallet_qr_url: await qrDataUrl(wallet.address),
      };
    },

    /**
     * Card / e-wallet: a Processing payment and the gateway's form. Balance: the partner
     * balance moves to the main balance at once (a Paid payment).
     */
    async deposit(
      tx: Tx,
      userId: number,
      request: { method: 'card' | 'ewallet' | 'balance'; amount: number },
    ): Promise<Outcome<DepositResponse>> {
      const { method, amount: amountCents } = request;
      checkLimits(method, amountCents);
      if (method === 'balance') {
        let posted;
        try {
          posted = await ledgerRepository.post(
            tx,
            { kind: 'partner_move', systemMemo: { code: 'partner_move', params: {} } },
            [
              { userId, account: 'balance_partner', amountCents: -amountCents },
              { userId, account: 'balance', amountCents },
            ],
          );
        } catch (error) {
          if (isNegativeBalance(error)) throw fieldError(422, 'amount', 'INSUFFICIENT_FUNDS');
          throw error;
        }
        const payment = await balanceRepository.insertPayment(tx, {
          userId,
          method,
          amountCents,
          status: 'paid',
          paidAt: deps.now(),
          ledgerTransactionId: posted.transactionId,
        });
        return {
          status: 201,
          body: {
            payment: toPayment(payment),
            checkout: null,
            message: SUCCESS_MESSAGES.BALANCE_MOVED,
            code: 'BALANCE_MOVED',
          },
        };
      }
      const gateway = gatewayFor(gateways, method)!;
      const user = await userOf(userId, tx);
      const payment = await balanceRepository.insertPayment(tx, {
        userId,
        method,
        driver: gateway.id,
        amountCents,
        status: 'processing',
      });
      const form = gateway.checkout({
        orderId: String(payment.id),
        amountCents,
        currency: CURRENCY,
        description: `TradeHost balance top-up #${payment.id}`,
        method,
        returnUrl: `${config.publicUrl}/balance-operations?payment=${payment.id}`,
        language: user.language,
      });
      return {
        status: 201,
        body: {
          payment: toPayment(payment),
          checkout: {
            url: form.url,
            http_method: form.httpMethod,
            fields: form.fields,
            order_id: String(payment.id),
            order_sum: form.orderSum,
            currency: CURRENCY,
            signature: form.signature,
          },
          message: SUCCESS_MESSAGES.PAYMENT_CREATED,
          code: 'PAYMENT_CREATED',
        },
      };
    },

    /** Crypto top-ups: the price for a request, open requests, reports and the explorer's look. */
    crypto,

    /**
     * A crypto top-up request: the network's wallet and an amount of its own to send there
     * (crypto.service.ts); `price` (BTC) read before the transaction.
     */
    async requestCrypto(
      tx: Tx,
      userId: number,
      request: { network: string; amount: number },
      price: number | undefined,
    ): Promise<Outcome<CryptoTopUpResponse>> {
      const wallet = walletOf(request.network);
      checkLimits('crypto', request.amount);
      return crypto.request(tx, userId, wallet.id, request.amount, price);
    },

    async payment(userId: number, id: number): Promise<PaymentResponse> {
      const row = await balanceRepository.findPayment(db, id);
      if (!row || row.userId !== userId) throw new AppError(404, 'NOT_FOUND');
      return { payment: toPayment(row) };
    },

    /** The confirmation step: the recipient's name, and the checks the transfer will make. */
    async previewTransfer(
      userId: number,
      request: { email: string; amount: number },
    ): Promise<TransferPreviewResponse> {
      const recipient = await recipientOf(userId, request.email);
      const sender = await userOf(userId);
      if (sender.balanceCents < request.amount)
        throw fieldError(422, 'amount', 'INSUFFICIENT_FUNDS_TRANSFER');
      return {
        recipient: { name: recipient.name, email: recipient.email },
        amount: centsToDollars(request.amount),
      };
    },

    /**
     * A transfer as one statement (balanceRepository.transferCtes) for idempotency's
     * respondInOne: the refusals from its facts when nothing moved, in the order the checks are
     * made (signed out, recipient, oneself), and a purse going below zero as "insufficient funds".
     */
    transfer(
      userId: number,
      request: { email: string; amount: number },
    ): StatementWork<TransferFacts> {
      return {
        ctes: (free) =>
          balanceRepository.transferCtes(free, {
            senderId: userId,
            email: request.email,
            amountCents: request.amount,
            said: { message: SUCCESS_MESSAGES.TRANSFER_DONE, code: 'TRANSFER_DONE' },
          }),
        facts: balanceRepository.transferFacts,
        refusal: ({ sender, recipient }) => {
          if (!sender) throw new AppError(401, 'UNAUTHORIZED');
          checkRecipient(
            userId,
            recipient
              ? { id: recipient.id, emailVerifiedAt: recipient.email_verified_at }
              : undefined,
          );
          throw new Error('a transfer moved nothing, and none of its checks says why');
        },
        failure: (error) =>
          isNegativeBalance(error)
            ? fieldError(422, 'amount', 'INSUFFICIENT_FUNDS_TRANSFER')
            : error,
      };
    },

    /**
     * After a transfer's statement committed: the purses' live updates and the recipient's
     * notice, from what the statement read back.
     */
    async transferred({ sender, recipient, entries }: TransferFacts): Promise<void> {
      const posted = (entries ?? []).map(toPostedEntry);
      const credited = posted.find((entry) => entry.userId === recipient?.id);
      if (!sender || !recipient || !credited) throw new Error('a transfer without its posting');
      publishBalances(db, posted);
      await credits.transferReceived({
        to: {
          id: recipient.id,
          email: recipient.email,
          name: recipient.name,
          language: recipient.language,
        },
        accountChat: recipient.account_chat,
        amountCents: credited.amountCents,
        balanceAfterCents: credited.balanceAfterCents ?? 0,
        from: { name: sender.name, email: sender.email },
      });
    },

    async history(
      kind: HistoryKind,
      userId: number,
      filter: HistoryFilter,
    ): Promise<Page<unknown>> {
      const paging = pagingOf(filter.page, filter.per_page);
      const { rows, total } = await historyRows(kind, userId, periodOf(filter), paging);
      return { data: rows, meta: { page: filter.page, per_page: filter.per_page, total } };
    },

    /** The whole period as CSV (RFC 4180, UTF-8 with BOM so spreadsheets read Cyrillic). */
    async csv(kind: HistoryKind, userId: number, filter: HistoryFilter): Promise<string> {
      const { rows } = await historyRows(kind, userId, periodOf(filter), {
        limit: CSV_MAX_ROWS,
        offset: 0,
      });
      return toCsv(kind, rows as never[]);
    },

    /**
     * A gateway's notification. Verified, then credited once: the payment row is locked, and
     * only a payment not yet Paid is credited; a repeated or late notification is acknowledged
     * and changes nothing. A wrong amount or currency is refused and audited. The user is told
     * of a credit once it has committed.
     */
    async handleNotification(
      driver: string,
      fields: Record<string, string>,
      ip: string,
    ): Promise<GatewayAck> {
      const gateway = gateways.get(driver as GatewayId);
      if (!gateway) throw new AppError(404, 'NOT_FOUND');
      let note;
      try {
        note = gateway.parseNotification(fields, { ip });
      } catch (error) {
        if (error instanceof GatewaySignatureError) {
          log.warn({ driver, ip, reason: error.message }, 'gateway notification refused');
          throw new AppError(403, 'SIGNATURE_INVALID');
        }
        throw error;
      }
      const id = /^\d{1,15}$/.test(note.orderId) ? Number(note.orderId) : 0;
      const outcome = await inTransaction(db, async (tx) => {
        const payment = await balanceRepository.lockPayment(tx, id);
        if (!payment || payment.driver !== gateway.id) return 'unknown' as const;
        if (payment.status === 'paid') return 'done' as const;
        if (note.amountCents !== payment.amountCents || note.currency !== payment.currency) {
          await auditRepository.insert(tx, {
            actorId: null,
            action: 'payment.mismatch',
            subjectType: 'payment',
            subjectId: String(payment.id),
            targetUserId: payment.userId,
            details: {
              driver,
              expected: { amount: formatCents(payment.amountCents), currency: payment.currency },
              received: { amount: formatCents(note.amountCents), currency: note.currency },
              operation_id: note.operationId,
            },
          });
          return 'mismatch' as const;
        }
        if (note.outcome === 'failed') {
          if (payment.status === 'processing')
            await balanceRepository.updatePayment(tx, payment.id, {
              status: 'not_paid',
              operationId: note.operationId,
            });
          return 'done' as const;
        }
        const posted = await ledgerRepository.post(
          tx,
          {
            kind: 'topup',
            systemMemo: {
              code: 'topup_gateway',
              params: {
                payment_id: payment.id,
                // a payment with a gateway is a card or e-wallet one (deposit wrote it)
                method: payment.method as GatewayMethod,
                gateway: gateway.id,
                operation_id: note.operationId,
              },
            },
          },
          [
            { account: `gateway:${gateway.id}`, amountCents: -payment.amountCents },
            { userId: payment.userId, account: 'balance', amountCents: payment.amountCents },
          ],
        );
        await balanceRepository.updatePayment(tx, payment.id, {
          status: 'paid',
          paidAt: deps.now(),
          operationId: note.operationId,
          ledgerTransactionId: posted.transactionId,
        });
        return 'credited' as const;
      });
      // committed: the user hears of the money (a failure to tell is logged, never thrown)
      if (outcome === 'credited') await credits.paymentPaid(id);
      // a refusal is acknowledged in the gateway's own terms (a 2xx that says "error"): any
      // other status would only make the gateway deliver the same refused notification again
      const handled = outcome === 'credited' || outcome === 'done';
      (handled ? log.info : log.warn).call(
        log,
        { driver, orderId: note.orderId, outcome },
        'gateway notification',
      );
      return gateway.acknowledge(note.orderId, handled);
    },
  };

  async function recipientOf(userId: number, email: string) {
    const recipient = await userRepository.findByEmail(db, email);
    checkRecipient(userId, recipient);
    return recipient;
  }

  function checkRecipient<T extends { id: number; emailVerifiedAt: Date | string | null }>(
    userId: number,
    recipient: T | undefined,
  ): asserts recipient is T {
    if (!recipient || !recipient.emailVerifiedAt)
      throw fieldError(422, 'email', 'RECIPIENT_NOT_FOUND');
    if (recipient.id === userId) throw fieldError(422, 'email', 'TRANSFER_TO_SELF');
  }

  async function historyRows(
    kind: HistoryKind,
    userId: number,
    period: Period,
    paging: { limit: number; offset: number },
  ): Promise<{ rows: unknown[]; total: number }> {
    switch (kind) {
      case 'payments': {
        const page = await balanceRepository.paymentsOf(db, userId, period, paging);
        return { rows: page.rows.map(toPayment), total: page.total };
      }
      case 'transfers': {
        const page = await balanceRepository.transfersOf(db, userId, period, paging);
        return { rows: page.rows.map((row) => toTransfer(row, userId)), total: page.total };
      }
      case 'charges': {
        const user = await userOf(userId);
        const page = await balanceRepository.chargesOf(db, userId, period, paging);
        return { rows: page.rows.map((row) => toCharge(row, user.language)), total: page.total };
      }
      case 'withdrawals': {
        const page = await balanceRepository.withdrawalsOf(db, userId, period, paging);
        return { rows: page.rows.map(toWithdrawal), total: page.total };
      }
    }
  }
}

/** Retries exhausted in a transfer: the spec's text, answered 503 so the client may retry. */
export function transferFailure(error: unknown): unknown {
  return error instanceof TransactionRetriesExhausted
    ? new AppError(503, 'TRANSFER_FAILED')
    : error;
}

const STATUS_WORDS: Record<string, string> = {
  received: 'Received',
  sent: 'Sent',
  under_review: 'Under review',
  paid_out: 'Paid out',
  cancelled: 'Cancelled',
  paid: 'Paid',
  not_paid: 'Not paid',
  processing: 'Processing',
  rejected: 'Rejected',
  deleted: 'Deleted',
};

const dollars = (amount: number) => amount.toFixed(2);

const CSV_COLUMNS: Record<HistoryKind, [string, (row: never) => CsvValue][]> = {
  payments: [
    ['Date', (r: { created_at: string }) => r.created_at],
    ['ID', (r: { id: number }) => r.id],
    ['Method', (r: { method: string }) => r.method],
    ['Amount', (r: { amount: number }) => dollars(r.amount)],
    ['Currency', (r: { currency: string }) => r.currency],
    ['Status', (r: { status: string }) => STATUS_WORDS[r.status]],
    ['Network', (r: { network: string | null }) => r.network],
    ['TXID', (r: { txid: string | null }) => r.txid],
    ['Reason', (r: { reason: string | null }) => r.reason],
  ],
  transfers: [
    ['Date', (r: { created_at: string }) => r.created_at],
    ['ID', (r: { id: number }) => r.id],
    ['Status', (r: { status: string }) => STATUS_WORDS[r.status]],
    ['Amount', (r: { amount: number }) => dollars(r.amount)],
    ['Name', (r: { counterparty: { name: string } }) => r.counterparty.name],
    ['E-mail', (r: { counterparty: { email: string } }) => r.counterparty.email],
  ],
  charges: [
    ['Date', (r: { created_at: string }) => r.created_at],
    ['ID', (r: { id: number }) => r.id],
    ['Description', (r: { description: string }) => r.description],
    ['Amount', (r: { amount: number }) => dollars(r.amount)],
    ['Status', (r: { status: string }) => STATUS_WORDS[r.status]],
  ],
  withdrawals: [
    ['Date', (r: { created_at: string }) => r.created_at],
    ['ID', (r: { id: number }) => r.id],
    ['Method', (r: { method: string }) => r.method],
    ['Wallet', (r: { wallet: string }) => r.wallet],
    ['Amount', (r: { amount: number }) => dollars(r.amount)],
    ['Status', (r: { status: string }) => STATUS_WORDS[r.status]],
  ],
};

export function toCsv(kind: HistoryKind, rows: never[]): string {
  const columns = CSV_COLUMNS[kind];
  return csvFile(
    columns.map(([name]) => name),
    rows.map((row) => columns.map(([, value]) => value(row))),
    { bom: true },
  );
}
