import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useMatches } from 'react-router';
import { Page } from '../../../shared/ui/page/page';
import { SectionNav } from '../../../shared/ui/section-nav/section-nav';
import { NoAccess } from '../components/no-access';
import { SecondFactorRequired } from '../components/second-factor-required';
import { Loading } from '../components/states';
import {
  useMayOpen,
  type OperatorLayoutHandle,
  type OperatorRouteHandle,
} from '../lib/operator-roles';
import { useSecondFactorRequired } from '../lib/second-factor-required';

/**
 * Route module (lazy, operators only): the operator heading and the sections the operator's roles
 * open. The sections and the role each page needs are declared with the routes (app/router.tsx);
 * a page of another role shows NoAccess in its place, unloaded. The area's address, the review
 * queue, takes an operator without the billing role to their first section instead. Once the
 * API refuses a call for want of a second factor (OPERATOR_SECOND_FACTOR_REQUIRED: every
 * operator call of such an operator), the area says so in place of its pages and sections, with
 * the way to Profile's second factor; Try again opens the page afresh.
 */
export function Component() {
  const { t } = useTranslation('operator');
  const matches = useMatches();
  const mayOpen = useMayOpen();
  const sections =
    matches
      .map((match) => (match.handle as Partial<OperatorLayoutHandle> | undefined)?.operatorSections)
      .find((found) => found !== undefined) ?? [];
  const shown = sections.filter((section) => mayOpen(section.role));
  const page = matches.at(-1);
  const needs = (page?.handle as OperatorRouteHandle | undefined)?.operatorRole;
  const home = page?.pathname.replace(/\/$/, '') === '/operator';
  const start = shown.find((section) => section.role) ?? shown[0];
  const [since, setSince] = useState(() => Date.now());
  const needsSecondFactor = useSecondFactorRequired(since);

  if (needsSecondFactor) {
    return (
      <Page title={t('title')} lead={t('lead')}>
        <SecondFactorRequired onRetry={() => setSince(Date.now())} />
      </Page>
    );
  }

  let content = <Outlet />;
  if (!mayOpen(needs)) {
    content = home && start ? <Navigate to={start.to} replace /> : <NoAccess role={needs} />;
  }
  return (
    <Page title={t('title')} lead={t('lead')}>
      <SectionNav
        label={t('sectionsLabel')}
        items={shown.map((section) => ({
          to: section.to,
          end: section.end,
          label: t(section.label),
        }))}
      />
      <Suspense fallback={<Loading />}>{content}</Suspense>
    </Page>
  );
}
