import type { PartnerRewardStatus, WithdrawalStatus } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { Badge, type Tone } from '../../../operator/components/badge';

const WITHDRAWAL_TONES: Record<WithdrawalStatus, Tone> = {
  received: 'info',
  under_review: 'warning',
  paid_out: 'success',
  cancelled: 'neutral',
};

const REWARD_TONES: Record<PartnerRewardStatus, Tone> = {
  pending: 'warning',
  available: 'success',
  cancelled: 'neutral',
};

/** Received, Under review, Paid out, Cancelled (SPEC 4). */
export function WithdrawalStatusBadge({ status }: { status: WithdrawalStatus }) {
  const { t } = useTranslation('operator');
  return <Badge tone={WITHDRAWAL_TONES[status]}>{t(`partner.withdrawalStatuses.${status}`)}</Badge>;
}

/** A reward in its hold, in the partner balance, or cancelled by a refund. */
export function RewardStatusBadge({ status }: { status: PartnerRewardStatus }) {
  const { t } = useTranslation('operator');
  return <Badge tone={REWARD_TONES[status]}>{t(`partner.rewardStatuses.${status}`)}</Badge>;
}

/** A referral with a paid server or monitoring subscription now, or not. */
export function ReferralActivityBadge({ active }: { active: boolean }) {
  const { t } = useTranslation('operator');
  return (
    <Badge tone={active ? 'success' : 'neutral'}>
      {active ? t('partner.referrals.active') : t('partner.referrals.inactive')}
    </Badge>
  );
}
