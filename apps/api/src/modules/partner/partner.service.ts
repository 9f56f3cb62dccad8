import {
  centsToDollars,
  type PartnerInfo,
  type PartnerInfoData,
  type PartnerLevelsResponse,
  type PartnerNetworkResponse,
  type PartnerPeriod,
} from '@tradehost/contracts';
import { AppError } from '../../lib/errors.ts';
import { qrDataUrl } from '../../lib/qr.ts';
import type { ServiceDeps } from '../deps.ts';
import { partnerRepository } from './partner.repository.ts';

export type PartnerService = ReturnType<typeof createPartnerService>;

/** j***@example.com: the first letter of the name part and the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

const percentOf = (basisPoints: number) => basisPoints / 100;

const periodOf = (period: PartnerPeriod) => ({
  ...(period.from ? { from: new Date(period.from) } : {}),
  ...(period.to ? { to: new Date(period.to) } : {}),
});

/** The partner programme as its partner reads it: code, balances, levels, statistics, network. */
export function createPartnerService({
  db,
  config,
  now,
}: Pick<ServiceDeps, 'db' | 'config' | 'now'>) {
  const service = {
    /** The partner's code, link, active referrals and balances (what `info` answers but the QR). */
    async figures(userId: number): Promise<Omit<PartnerInfo, 'link_qr_url'>> {
      const [partner, active, percents] = await Promise.all([
        partnerRepository.partner(db, userId),
        partnerRepository.activeCounts(db, userId, now()),
        partnerRepository.rewardLevels(db),
      ]);
      if (!partner) throw new AppError(401, 'UNAUTHORIZED');
      const minimums = config.partner.withdrawalMethods.map((method) => method.minimumCents);
      const link = `${config.publicUrl}/signup?ref=${encodeURIComponent(partner.referralCode)}`;
      return {
        referral_code: partner.referralCode,
        link,
        level_1_referral_active_count: active[0],
        level_2_referral_active_count: active[1],
        level_3_referral_active_count: active[2],
        partnerMinWithdrawal: centsToDollars(minimums.length > 0 ? Math.min(...minimums) : 0),
        balances: {
          available: centsToDollars(partner.availableCents),
          pending: centsToDollars(partner.pendingCents),
        },
        hold_days: config.partner.holdDays,
        reward_percents: percents.map(percentOf),
      };
    },

    async info(userId: number): Promise<PartnerInfo> {
      const figures = await service.figures(userId);
      return { ...figures, link_qr_url: await qrDataUrl(figures.link) };
    },

    async levels(userId: number): Promise<PartnerLevelsResponse> {
      const levels = await partnerRepository.levels(db, userId);
      return {
        data: levels.map((row) => ({
          level: row.level,
          rewardForLevel: percentOf(row.percentBp),
          userCount: row.users,
          rewardCount: centsToDollars(row.turnoverCents),
          rewardSum: centsToDollars(row.rewardCents),
        })),
      };
    },

    async infoData(userId: number, input: PartnerPeriod): Promise<PartnerInfoData> {
      const period = periodOf(input);
      const [rewards, conversion, totals] = await Promise.all([
        partnerRepository.rewardsByDay(db, userId, period),
        partnerRepository.conversionByDay(db, userId, period),
        partnerRepository.rewardTotals(db, userId, period),
      ]);
      const sum = (key: 'clicks' | 'registrations' | 'paying') =>
        conversion.reduce((total, row) => total + row[key], 0);
      const clicks = sum('clicks');
      const registrations = sum('registrations');
      return {
        rewardData: rewards.map((row) => ({ date: row.day, amount: centsToDollars(row.cents) })),
        conversionData: conversion.map((row) => ({
          date: row.day,
          clicks: row.clicks,
          registrations: row.registrations,
          paying_clients: row.paying,
        })),
        stats: {
          clicks,
          registrations,
          paying_clients: sum('paying'),
          conversion: clicks > 0 ? registrations / clicks : null,
          turnover: centsToDollars(totals.turnoverCents),
          rewards_pending: centsToDollars(totals.pendingCents),
          rewards_available: centsToDollars(totals.availableCents),
        },
      };
    },

    /**
     * A page of the network: the partner's referrals, or those of one of them (levels 1-2) a
     * level down; with `search`, the matches on all three levels. E-mails are masked unless
     * `mask` is false (the operator's view).
     */
    async network(
      userId: number,
      query: {
        parent_id?: number | undefined;
        search?: string | undefined;
        page: number;
        per_page: number;
      },
      { mask = true }: { mask?: boolean } = {},
    ): Promise<PartnerNetworkResponse> {
      const parentId = query.parent_id ?? userId;
      const { rows, total, parentLevel } = await partnerRepository.network(db, {
        partnerId: userId,
        parentId,
        search: query.search || undefined,
        limit: query.per_page,
        offset: (query.page - 1) * query.per_page,
        now: now(),
      });
      // a referral's referrals are shown to levels 1 and 2 only (the tree ends at 3)
      if (parentId !== userId && (parentLevel === null || parentLevel > 2))
        throw new AppError(404, 'NOT_FOUND');
      return {
        data: rows.map((row) => ({
          id: row.id,
          email: mask ? maskEmail(row.email) : row.email,
          registered_at: row.createdAt.toISOString(),
          level: row.level,
          active: row.active,
          referrals: row.referrals,
          turnover: centsToDollars(row.turnoverCents),
          rewards: centsToDollars(row.rewardCents),
        })),
        meta: { page: query.page, per_page: query.per_page, total },
      };
    },
  };
  return service;
}
