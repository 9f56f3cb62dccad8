import {
  CRYPTO_REQUEST_HOURS,
  ERROR_MESSAGES,
  HOUR_MS,
  MINUTE_MS,
  SUCCESS_MESSAGES,
  type ChainCheck,
  type CryptoTopUp,
  type CryptoTopUpResponse,
  type CryptoTopUpsResponse,
  type ErrorCode,
  type PaymentResponse,
} from '@tradehost/contracts';
import type { Tx } from '../../db/transaction.ts';
import { inTransaction } from '../../db/transaction.ts';
import {
  createExplorers,
  ExplorerUnavailable,
  judge,
  parseUnits,
  type ChainExplorer,
  type ChainLookup,
  type Expected,
  type Verdict,
} from '../../integrations/explorers/index.ts';
import type { ExplorerNetwork } from '../../integrations/explorers/settings.ts';
import { inBatches } from '../../lib/in-batches.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import { qrDataUrl } from '../../lib/qr.ts';
import type { Outcome } from '../../plugins/idempotency.ts';
import type { ServiceDeps } from '../deps.ts';
import { createCreditNotices } from './balance.credits.ts';
import { decimalText, toPayment } from './balance.mapper.ts';
import { balanceRepository, type PaymentRow } from './balance.repository.ts';
import { CRYPTO_ASSETS } from './crypto-assets.ts';
import { creditCryptoPayment, rejectCryptoPayment } from './crypto-ledger.ts';
import { cryptoRepository } from './crypto.repository.ts';

/** A payment made this long before its request (clocks differ) still counts for it. */
const CLOCK_SLACK_MS = 10 * MINUTE_MS;
/** Reported payments looked up per check. */
const CHECK_BATCH = 100;

const MISMATCH_CODES: Record<string, ErrorCode> = {
  destination: 'CRYPTO_TX_WRONG_DESTINATION',
  token: 'CRYPTO_TX_WRONG_TOKEN',
  amount: 'CRYPTO_TX_WRONG_AMOUNT',
  before_request: 'CRYPTO_TX_BEFORE_REQUEST',
};

/** The TXID of another payment (SPEC 8: 'This txid is already in use.' under the field). */
const txidTaken = () => new AppError(422, 'TXID_TAKEN', { txid: [ERROR_MESSAGES.TXID_IN_USE] });

/** The explorer's answer to a report, read before the report's transaction. */
export interface Look {
  explorer: ChainExplorer;
  lookup: ChainLookup | 'unavailable';
}

export type CryptoDeps = Pick<ServiceDeps, 'db' | 'config' | 'now' | 'log' | 'mailer'>;

export interface CheckReport {
  /** Requests that expired unpaid. */
  expired: number;
  /** Reported payments looked up. */
  checked: number;
  credited: number[];
  rejected: number[];
  /** Lookups the explorer did not answer (each payment stays Under review). */
  unavailable: number;
}

export type CryptoTopUps = ReturnType<typeof createCryptoTopUps>;

/**
 * Crypto top-ups bound to their payer. A request fixes an amount that no other open request of
 * the network has (the dollars asked plus a tag of 1-99 cents; for BTC also in satoshis at the
 * moment's price), held 24 hours: a payment of exactly that amount to our wallet is this request's
 * and no one else's. Its TXID is then reported. With an explorer on the network (CRYPTO_EXPLORER)
 * the report is refused unless the transaction pays the request exactly, and the check (a job)
 * credits it by itself at CRYPTO_CONFIRMATIONS, through the same ledger path as an operator
 * (crypto-ledger.ts); without one, the operator checks the TXID against the amount by hand.
 */
export function createCryptoTopUps(deps: CryptoDeps & { explorers?: Map<string, ChainExplorer> }) {
  const { db, config, log, now } = deps;
  const { cryptoWallets, explorers: settings } = config.payments;
  const explorers = deps.explorers ?? createExplorers(settings);
  const credits = createCreditNotices(deps);

  const walletOf = (network: string | null) => cryptoWallets.find((w) => w.id === network);

  /** What a request's payment must be, as the explorer's judge takes it. */
  function expectedOf(payment: PaymentRow, address: string, explorer: ChainExplorer): Expected {
    const asset = CRYPTO_ASSETS[payment.network!];
    return {
      address,
      token: explorer.token,
      units: payment.payAmount && asset ? parseUnits(payment.payAmount, asset.decimals) : null,
      decimals: asset?.decimals ?? 8,
      // USDT is shown as dollars are, with its cents
      shownDecimals: asset?.dollar ? 2 : 0,
      // a payment reported before requests existed came after its transaction
      notBefore: payment.expiresAt
        ? new Date(payment.createdAt.getTime() - CLOCK_SLACK_MS)
        : new Date(0),
      confirmations: settings.confirmations[payment.network as ExplorerNetwork] ?? 1,
    };
  }

  /** What the operator sees of a look: the verdict's facts, or the last ones when unanswered. */
  function chainCheckOf(
    explorer: ChainExplorer,
    network: string,
    verdict: Verdict | undefined,
    previous: ChainCheck | null,
  ): ChainCheck {
    const base = {
      checked_at: now().toISOString(),
      driver: explorer.driver,
      required: settings.confirmations[network as ExplorerNetwork] ?? 1,
    };
    if (!verdict)
      return {
        reason: null,
        to: null,
        amount: null,
        token: null,
        confirmations: null,
        ...previous,
        ...base,
        state: 'unavailable',
      };
    if (verdict.kind === 'not_found')
      return {
        ...base,
        state: 'not_found',
        reason: null,
        to: null,
        amount: null,
        token: null,
        confirmations: null,
      };
    const { to, amount, token, confirmations } = verdict.seen;
    const state = (
      {
        mismatch: 'mismatch',
        pending: 'unconfirmed',
        ready: 'confirmed',
        unpriced: 'unpriced',
      } as const
    )[verdict.kind];
    const reason = verdict.kind === 'mismatch' ? verdict.reason : null;
    return { ...base, state, reason, to, amount, token, confirmations };
  }

  async function topUpOf(payment: PaymentRow): Promise<CryptoTopUp> {
    const address = walletOf(payment.network)?.address ?? '';
    const btc = payment.network === 'BTC' && payment.payAmount;
    const uri = btc ? `bitcoin:${address}?amount=${decimalText(payment.payAmount!)}` : null;
    return {
      payment: toPayment(payment),
      address,
      payment_uri: uri,
      wallet_qr_url: await qrDataUrl(uri ?? address),
    };
  }

  return {
    explorers,

    /**
     * The dollar price of the network's coin, for a request's asset amount (BTC), read before
     * the request's transaction; undefined when there is none to read (no explorer, one without
     * prices, or one that does not answer: the request then fixes dollars only).
     */
    async price(network: string): Promise<number | undefined> {
      const id = network.trim().toUpperCase();
      const asset = CRYPTO_ASSETS[id];
      const explorer = explorers.get(id);
      if (!asset || asset.dollar || !explorer?.usdPrice) return undefined;
      try {
        return await explorer.usdPrice();
      } catch (error) {
        log.warn({ err: error, network: id }, 'no price from the explorer: dollars only');
        return undefined;
      }
    },

    /**
     * A request of `requestedCents` on the wallet's network: a free tag picked, then inserted;
     * a tag another request took meanwhile is given up for another, until none is left
     * (CRYPTO_AMOUNTS_BUSY).
     */
    async request(
      tx: Tx,
      userId: number,
      network: string,
      requestedCents: number,
      price: number | undefined,
    ): Promise<Outcome<CryptoTopUpResponse>> {
      const asset = CRYPTO_ASSETS[network];
      const expiresAt = new Date(now().getTime() + CRYPTO_REQUEST_HOURS * HOUR_MS);
      // a tag lost to another request (or, for BTC, one whose satoshis another took) is not
      // tried again: at most 99 tries, and each lost one is an amount taken
      const tried: number[] = [];
      for (;;) {
        const tag = await cryptoRepository.freeTag(tx, network, requestedCents, tried);
        if (tag === undefined) break;
        tried.push(tag);
        const amountCents = requestedCents + tag;
        const payAmount = !asset
          ? null
          : asset.dollar
            ? (amountCents / 100).toFixed(2)
            : price
              ? (Math.round((amountCents * 1_000_000) / price) / 100_000_000).toFixed(8)
              : null;
        const row = await cryptoRepository.insertRequest(tx, {
          userId,
          network,
          amountCents,
          payAmount,
          expiresAt,
        });
        if (row) {
          const topUp = await topUpOf(row);
          return {
            status: 201,
            body: {
              ...topUp,
              message: SUCCESS_MESSAGES.CRYPTO_REQUESTED,
              code: 'CRYPTO_REQUESTED',
            },
          };
        }
      }
      throw fieldError(422, 'amount', 'CRYPTO_AMOUNTS_BUSY');
    },

    async open(userId: number): Promise<CryptoTopUpsResponse> {
      const rows = await cryptoRepository.openRequestsOf(db, userId, now());
      return { data: await Promise.all(rows.map(topUpOf)) };
    },

    /**
     * The explorer's answer on a report's TXID, asked before the report's transaction (no
     * connection is held over the call); undefined when no explorer reads the request's network
     * or the request is not one the reader can report (the report refuses it).
     */
    async look(
      userId: number,
      report: { payment_id: number; txid: string },
    ): Promise<Look | undefined> {
      const payment = await balanceRepository.findPayment(db, report.payment_id);
      if (
        payment?.userId !== userId ||
        payment.method !== 'crypto' ||
        payment.status !== 'processing'
      )
        return undefined;
      const explorer = explorers.get(payment.network!);
      if (!explorer) return undefined;
      try {
        return { explorer, lookup: await explorer.lookup(report.txid) };
      } catch (error) {
        if (!(error instanceof ExplorerUnavailable)) throw error;
        log.warn(
          { err: error, paymentId: payment.id, driver: explorer.driver },
          'explorer unavailable: the report waits for the check',
        );
        return { explorer, lookup: 'unavailable' };
      }
    },

    /**
     * The payment of a request reported: Under review with the payer's wallet and the TXID,
     * refused when the TXID is another payment's or the explorer shows it does not pay this
     * request; credited at once when the explorer already shows it final. `credited` (beside the
     * answer) names a payment to tell the user of once committed.
     */
    async report(
      tx: Tx,
      userId: number,
      report: { payment_id: number; wallet: string; txid: string },
      look: Look | undefined,
    ): Promise<Outcome<PaymentResponse> & { credited?: number }> {
      const payment = await balanceRepository.lockPayment(tx, report.payment_id);
      if (payment?.userId !== userId || payment.method !== 'crypto')
        throw new AppError(404, 'NOT_FOUND');
      const expired = payment.expiresAt !== null && payment.expiresAt <= now();
      if (payment.status === 'not_paid' || (payment.status === 'processing' && expired))
        throw fieldError(422, 'payment_id', 'CRYPTO_REQUEST_EXPIRED');
      if (payment.status !== 'processing')
        throw fieldError(422, 'payment_id', 'CRYPTO_REQUEST_REPORTED');
      if (await cryptoRepository.txidTaken(tx, report.txid)) throw txidTaken();
      const wallet = walletOf(payment.network);
      if (!wallet) throw fieldError(422, 'network', 'NETWORK_UNKNOWN');

      let chain: ChainCheck | null = null;
      let verdict: Verdict | undefined;
      if (look) {
        if (look.lookup !== 'unavailable')
          verdict = judge(look.lookup, expectedOf(payment, wallet.address, look.explorer));
        chain = chainCheckOf(look.explorer, wallet.id, verdict, null);
      }
      if (verdict?.kind === 'mismatch')
        throw fieldError(422, 'txid', MISMATCH_CODES[verdict.reason]!);
      let row;
      try {
        row = await balanceRepository.updatePayment(tx, payment.id, {
          status: 'under_review',
          wallet: report.wallet,
          txid: report.txid,
          chain,
        });
      } catch (error) {
        if (isUniqueViolation(error, 'payments_txid_key')) throw txidTaken();
        throw error;
      }
      if (verdict?.kind === 'ready') {
        await creditCryptoPayment(tx, row, { actorId: null, at: now(), chain: chain! });
        const paid = await balanceRepository.findPayment(tx, payment.id);
        return {
          status: 201,
          body: {
            payment: toPayment(paid!),
            message: SUCCESS_MESSAGES.PAYMENT_CONFIRMED,
            code: 'PAYMENT_CONFIRMED',
          },
          credited: payment.id,
        };
      }
      return {
        status: 201,
        body: {
          payment: toPayment(row),
          message: SUCCESS_MESSAGES.CRYPTO_SUBMITTED,
          code: 'CRYPTO_SUBMITTED',
        },
      };
    },

    /** After a report committed: the user hears of a credit. */
    async reported(outcome: { credited?: number }): Promise<void> {
      if (outcome.credited) await credits.paymentPaid(outcome.credited);
    },

    /**
     * The job's round: requests past their 24 hours expire (Not paid, their amounts free), then
     * every reported payment on a network with an explorer is looked up outside any transaction
     * and decided under its row lock: credited when it pays its request exactly and is deep
     * enough, rejected when it does not pay it, else its facts kept for the operator. A payment
     * already decided (by an operator, or another check racing this one) is left alone. An
     * explorer that does not answer leaves its payments waiting (logged) until the next round.
     */
    async check(): Promise<CheckReport> {
      const report: CheckReport = {
        expired: await inBatches((limit) => cryptoRepository.expireRequests(db, now(), limit)),
        checked: 0,
        credited: [],
        rejected: [],
        unavailable: 0,
      };
      const down = new Set<string>();
      const due = await cryptoRepository.dueForCheck(db, [...explorers.keys()], CHECK_BATCH);
      for (const payment of due) {
        const explorer = explorers.get(payment.network!)!;
        const wallet = walletOf(payment.network);
        if (!wallet || down.has(explorer.network)) continue;
        let lookup: ChainLookup | undefined;
        try {
          lookup = await explorer.lookup(payment.txid!);
        } catch (error) {
          if (!(error instanceof ExplorerUnavailable)) throw error;
          log.warn(
            { err: error, paymentId: payment.id, driver: explorer.driver },
            'explorer unavailable: the payment waits for the next check',
          );
          report.unavailable += 1;
          down.add(explorer.network);
        }
        report.checked += 1;
        const outcome = await inTransaction(db, async (tx) => {
          const locked = await balanceRepository.lockPayment(tx, payment.id);
          if (locked?.status !== 'under_review' || locked.txid !== payment.txid) return 'decided';
          const verdict = lookup && judge(lookup, expectedOf(locked, wallet.address, explorer));
          const chain = chainCheckOf(explorer, wallet.id, verdict, locked.chain);
          const at = now();
          if (verdict?.kind === 'ready') {
            await creditCryptoPayment(tx, locked, { actorId: null, at, chain });
            return 'credited';
          }
          if (verdict?.kind === 'mismatch') {
            const reason = ERROR_MESSAGES[MISMATCH_CODES[verdict.reason]!];
            await rejectCryptoPayment(tx, locked, { actorId: null, at, reason, chain });
            return 'rejected';
          }
          await balanceRepository.updatePayment(tx, locked.id, { chain });
          return 'waiting';
        });
        if (outcome === 'credited') report.credited.push(payment.id);
        if (outcome === 'rejected') report.rejected.push(payment.id);
      }
      // committed: the users hear of their money (a failure to tell is logged, never thrown)
      for (const id of report.credited) await credits.paymentPaid(id);
      if (report.expired || report.credited.length || report.rejected.length || report.unavailable)
        log.info({ ...report }, 'crypto payments checked');
      return report;
    },
  };
}
