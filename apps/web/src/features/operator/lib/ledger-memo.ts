import { ledgerMemoOf, WITHDRAWAL_METHODS, type LedgerEntry } from '@tradehost/contracts';
import type { TFunction } from 'i18next';

/** A withdrawal method's name ("USDT (TRC-20)"), its id when this build does not know it. */
const withdrawalMethodName = (id: string): string =>
  (WITHDRAWAL_METHODS as Record<string, { name: string } | undefined>)[id]?.name ?? id;

/**
 * A ledger row's memo in the reader's language: what the system wrote (its code and params) in
 * the words of `ledger.memos`, a charge in its own line of that language; otherwise the stored
 * memo, as it is: an operator's own text, an old row's English, or a code this build does not
 * know. Null when there is nothing to say.
 */
export function ledgerMemoText(
  entry: LedgerEntry,
  t: TFunction,
  language: 'en' | 'ru',
): string | null {
  const memo = ledgerMemoOf(entry);
  if (!memo) return entry.memo;
  switch (memo.code) {
    case 'topup_gateway':
      return t('ledger.memos.topup_gateway', {
        method: t(`methods.${memo.params.method}`),
        payment: memo.params.payment_id,
        gateway: memo.params.gateway,
        operation: memo.params.operation_id,
      });
    case 'topup_crypto':
      return t('ledger.memos.topup_crypto', {
        payment: memo.params.payment_id,
        network: memo.params.network,
        txid: memo.params.txid,
      });
    case 'charge':
      return language === 'ru' ? memo.params.description_ru : memo.params.description_en;
    case 'vps_create_refund':
    case 'vps_upgrade_refund':
    case 'vps_upgrade_revoked_refund':
      return t(`ledger.memos.${memo.code}`, { server: memo.params.server_id });
    case 'transfer':
      return t('ledger.memos.transfer', {
        transfer: memo.params.transfer_id,
        from: memo.params.from_user_id,
        to: memo.params.to_user_id,
      });
    case 'partner_move':
      return t('ledger.memos.partner_move');
    case 'partner_withdrawal':
      return t('ledger.memos.partner_withdrawal', {
        method: withdrawalMethodName(memo.params.method),
      });
    case 'partner_withdrawal_cancelled':
      return t('ledger.memos.partner_withdrawal_cancelled', {
        withdrawal: memo.params.withdrawal_id,
      });
    case 'partner_reward':
      return t('ledger.memos.partner_reward', {
        level: memo.params.level,
        charge: memo.params.charge_id,
      });
  }
}
