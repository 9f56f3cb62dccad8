import {
  OPERATOR_ROLES,
  type Operator,
  type OperatorRole,
  type OperatorRoleGrant,
  type UserRef,
} from '@tradehost/contracts';
import type { TFunction } from 'i18next';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, FormAlert, SelectField } from '../../../shared/ui/form';
import { notify } from '../../../shared/ui/toast/notify';
import { useGrantRoleMutation, useRevokeRoleMutation } from '../api/operators-api';
import { useFormatters } from '../lib/format';
import { useOperatorError } from '../lib/use-operator-error';
import { Badge } from './badge';
import { ConfirmDecisionDialog } from './decision-dialogs';
import { useDecisions } from './decision';
import controls from './controls.module.css';
import styles from './role-grants.module.css';

/**
 * The granting and revoking of operator roles, as the Operators page and a user's Roles section
 * show them: the roles held as chips (who granted each, when) with their Revoke buttons, the
 * form that grants one more, the revoke's confirmation and the second factor's state. Both calls
 * are step-up calls: the base query asks for the proof. The API's refusals (the last admin, a
 * cancelled step-up) are said where the action was taken.
 */

/** A role's name in the reader's words: Support, Billing… */
export function useRoleName(): (role: OperatorRole) => string {
  const { t } = useTranslation('operator');
  return (role) => t(`access.roles.${role}`);
}

/** On: the area is theirs; off: a warning, the area refuses them until they turn one on. */
export function SecondFactorState({ on }: { on: boolean }) {
  const { t } = useTranslation('operator');
  if (on) return <Badge tone="success">{t('operators.secondFactorOn')}</Badge>;
  return (
    <span className={controls.stack}>
      <Badge tone="warning">{t('operators.secondFactorOff')}</Badge>
      <span className={controls.small}>{t('operators.secondFactorOffHint')}</span>
    </span>
  );
}

function grantedText(grant: OperatorRoleGrant, t: TFunction, date: string): string {
  return grant.granted_by
    ? t('operators.grantedBy', { who: grant.granted_by.name || grant.granted_by.email, date })
    : t('operators.grantedByCli', { date });
}

/** The roles a user holds, each with who granted it and when, and its Revoke button. */
export function RoleChips({
  user,
  roles,
  onRevoke,
}: {
  user: UserRef;
  roles: readonly OperatorRoleGrant[];
  onRevoke: (role: OperatorRole, opener: HTMLElement) => void;
}) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const roleName = useRoleName();
  if (roles.length === 0) return <span className={controls.small}>{t('operators.noRoles')}</span>;
  return (
    <ul className={styles.chips} aria-label={t('operators.rolesOf', { email: user.email })}>
      {roles.map((grant) => (
        <li key={grant.role} className={styles.chip}>
          <span className={styles.chipText}>
            <span className={styles.role}>{roleName(grant.role)}</span>
            <span className={controls.small}>
              {grantedText(grant, t, format.dateTime(grant.granted_at))}
            </span>
          </span>
          <Button
            variant="ghost"
            className={styles.revoke}
            onClick={(event) => onRevoke(grant.role, event.currentTarget)}
          >
            {t('operators.revoke.button')}{' '}
            <span className="visually-hidden">
              {t('operators.revoke.context', { role: roleName(grant.role), email: user.email })}
            </span>
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** A role to grant the user among those they lack, and Grant (a step-up call). */
export function GrantRoleForm({ user, held }: { user: UserRef; held: readonly OperatorRole[] }) {
  const { t } = useTranslation('operator');
  const roleName = useRoleName();
  const errorText = useOperatorError();
  const fieldId = useId();
  const lacking = OPERATOR_ROLES.filter((role) => !held.includes(role));
  const [chosen, setChosen] = useState<OperatorRole | ''>('');
  const [failure, setFailure] = useState<string | null>(null);
  const [grant, { isLoading }] = useGrantRoleMutation();
  const role = chosen && lacking.includes(chosen) ? chosen : (lacking[0] ?? '');

  if (!role) return <span className={controls.small}>{t('operators.grant.all')}</span>;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    try {
      await grant({ userId: user.id, role }).unwrap();
      notify('success', t('operators.grant.done', { role: roleName(role), email: user.email }));
      setChosen('');
    } catch (error) {
      setFailure(errorText.request(error));
    }
  };

  return (
    <form className={styles.grant} noValidate onSubmit={(event) => void submit(event)}>
      <div className={styles.grantRow}>
        <SelectField
          id={fieldId}
          className={styles.grantField}
          label={
            <>
              {t('operators.grant.label')} <span className="visually-hidden">{user.email}</span>
            </>
          }
          value={role}
          onChange={(event) => setChosen(event.target.value as OperatorRole)}
          options={lacking.map((value) => ({ value, label: roleName(value) }))}
        />
        <Button
          type="submit"
          variant="secondary"
          loading={isLoading}
          loadingText={t('operators.grant.submitting')}
        >
          {t('operators.grant.submit')} <span className="visually-hidden">{user.email}</span>
        </Button>
      </div>
      {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
    </form>
  );
}

interface Revocation {
  user: UserRef;
  role: OperatorRole;
}

/**
 * Revoke with a confirmation: `start` opens the dialog for a role of a user from its button,
 * `dialog` is the dialog to render, `headingRef` the heading the focus goes to once it is done.
 */
export function useRevokeRole() {
  const { t } = useTranslation('operator');
  const roleName = useRoleName();
  const [revoke] = useRevokeRoleMutation();
  const decisions = useDecisions<'revoke', Revocation>({
    staleCodes: [],
    noticeOf: () => undefined,
  });
  const pending = decisions.pending?.subject;

  const dialog = pending ? (
    <ConfirmDecisionDialog
      {...decisions.dialog}
      danger
      title={t('operators.revoke.title', { role: roleName(pending.role) })}
      description={t('operators.revoke.description', {
        role: roleName(pending.role),
        email: pending.user.email,
      })}
      submitLabel={t('operators.revoke.submit')}
      submittingLabel={t('operators.revoke.submitting')}
      run={() =>
        decisions.decide<Operator>({
          fingerprint: `revoke:${pending.user.id}:${pending.role}`,
          send: () =>
            revoke({ userId: pending.user.id, role: pending.role })
              .unwrap()
              .then((r) => r.operator),
          successText: () =>
            t('operators.revoke.done', { role: roleName(pending.role), email: pending.user.email }),
        })
      }
    />
  ) : null;

  return {
    headingRef: decisions.headingRef,
    start: (user: UserRef, role: OperatorRole, opener: HTMLElement) =>
      decisions.start('revoke', { user, role }, opener),
    dialog,
  };
}

/** The roles of `operator` (or none yet) with their Revoke buttons and the grant form. */
export function OperatorRolesEditor({
  user,
  operator,
  onRevoke,
}: {
  user: UserRef;
  operator: Operator | undefined;
  onRevoke: (role: OperatorRole, opener: HTMLElement) => void;
}) {
  const roles = operator?.roles ?? [];
  return (
    <div className={styles.editor}>
      <RoleChips user={user} roles={roles} onRevoke={onRevoke} />
      <GrantRoleForm user={user} held={roles.map((grant) => grant.role)} />
    </div>
  );
}
