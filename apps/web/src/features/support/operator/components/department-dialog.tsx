import { zodResolver } from '@hookform/resolvers/zod';
import { departmentRequestSchema, type AdminDepartment, type UserRef } from '@tradehost/contracts';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type * as z from 'zod/mini';
import { Button, Checkbox, TextField } from '../../../../shared/ui/form';
import { useGetAdminUsersQuery } from '../../../operator/api/operator-api';
import {
  useCreateDepartmentMutation,
  useUpdateDepartmentMutation,
} from '../api/support-operator-api';
import { useReaderLanguage } from '../../../operator/lib/reader-language';
import type { ItemDialogProps } from '../../../operator/lib/use-item-dialog';
import { useOperatorError } from '../../../operator/lib/use-operator-error';
import { useSaveItem } from '../../../operator/lib/use-save-item';
import { ItemFormDialog } from '../../../operator/components/item-dialogs';
import operatorStyles from '../../../operator/components/operator.module.css';
import supportStyles from './support.module.css';
import styles from '../../../operator/components/controls.module.css';

/** What the form holds: the position as typed. */
interface DepartmentFormValues {
  name_en: string;
  name_ru: string;
  position: string;
  active: boolean;
}

type DepartmentValues = z.output<typeof departmentRequestSchema>;

const FIELDS = ['name_en', 'name_ru', 'position', 'active'] as const;
type Field = (typeof FIELDS)[number];

const schemaResolver = zodResolver(departmentRequestSchema) as unknown as Resolver<
  DepartmentFormValues,
  unknown,
  DepartmentValues
>;

/** The contract's schema over the position as a number (an empty or odd text: not a number). */
const resolver: Resolver<DepartmentFormValues, unknown, DepartmentValues> = (
  values,
  context,
  options,
) => {
  const typed = values.position.trim();
  const position = /^\d{1,4}$/.test(typed) ? Number(typed) : Number.NaN;
  return schemaResolver({ ...values, position: position as unknown as string }, context, options);
};

export interface DepartmentDialogProps extends ItemDialogProps {
  /** The department to edit; null adds one. */
  department: AdminDepartment | null;
  /** Where a new department goes by default: after the last one. */
  nextPosition: number;
}

/**
 * Adds a department or edits one: its name in both languages, its place in the lists, whether
 * users may open tickets in it, and the operators its mail goes to (picked among the operators
 * found by e-mail; none: every operator).
 */
export function DepartmentDialog({ department, nextPosition, ...dialog }: DepartmentDialogProps) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const language = useReaderLanguage();
  const [create] = useCreateDepartmentMutation();
  const [update] = useUpdateDepartmentMutation();
  const [operators, setOperators] = useState<UserRef[]>(department?.operators ?? []);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<DepartmentFormValues, unknown, DepartmentValues>({
    resolver,
    defaultValues: department
      ? {
          name_en: department.name_en,
          name_ru: department.name_ru,
          position: String(department.position),
          active: department.active,
        }
      : { name_en: '', name_ru: '', position: String(nextPosition), active: true },
  });

  const message = (field: Field): string | undefined => {
    const text = errors[field]?.message;
    if (!text) return undefined;
    if (field === 'position') return t('support.departments.form.positionInvalid');
    return errorText.field(text);
  };

  const { failure, submit } = useSaveItem({
    save: (values: DepartmentValues) => {
      const body = { ...values, operator_ids: operators.map((operator) => operator.id) };
      return department ? update({ id: department.id, body }).unwrap() : create(body).unwrap();
    },
    savedText: (values) =>
      t(department ? 'support.departments.updated' : 'support.departments.created', {
        name: language === 'ru' ? values.name_ru : values.name_en,
      }),
    onSaved: () => dialog.onOpenChange(false),
    form: { fields: FIELDS, setError, setFocus },
  });

  return (
    <ItemFormDialog
      {...dialog}
      title={
        department
          ? t('support.departments.form.editTitle', {
              name: language === 'ru' ? department.name_ru : department.name_en,
            })
          : t('support.departments.form.addTitle')
      }
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
      failure={failure}
      submitLabel={department ? t('support.save') : t('support.departments.form.add')}
      submittingLabel={t('support.saving')}
    >
      <TextField
        label={t('support.departments.form.name_en')}
        autoComplete="off"
        lang="en"
        required
        maxLength={100}
        error={message('name_en')}
        {...register('name_en')}
      />
      <TextField
        label={t('support.departments.form.name_ru')}
        autoComplete="off"
        lang="ru"
        required
        maxLength={100}
        error={message('name_ru')}
        {...register('name_ru')}
      />
      <TextField
        label={t('support.departments.form.position')}
        hint={t('support.departments.form.positionHint')}
        inputMode="numeric"
        autoComplete="off"
        required
        error={message('position')}
        {...register('position')}
      />
      <div className={styles.wide}>
        <Checkbox
          label={t('support.departments.form.active')}
          hint={t('support.departments.form.activeHint')}
          {...register('active')}
        />
      </div>
      <div className={styles.wide}>
        <OperatorPicker
          selected={operators}
          onAdd={(operator) => setOperators((current) => [...current, operator])}
          onRemove={(id) =>
            setOperators((current) => current.filter((operator) => operator.id !== id))
          }
        />
      </div>
    </ItemFormDialog>
  );
}

/**
 * The operators a department's mail goes to: each with its Remove, and a search among the users
 * by e-mail or name whose operators (role admin) can be added. No nested form: Enter in the
 * search box searches.
 */
function OperatorPicker({
  selected,
  onAdd,
  onRemove,
}: {
  selected: readonly UserRef[];
  onAdd: (operator: UserRef) => void;
  onRemove: (id: number) => void;
}) {
  const { t } = useTranslation('operator');
  const legendId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const users = useGetAdminUsersQuery(
    { query: search, page: 1, per_page: 10 },
    { skip: search === '' },
  );
  const found = (users.currentData?.data ?? []).filter(
    (user) => user.role === 'admin' && !selected.some((operator) => operator.id === user.id),
  );

  const find = () => setSearch(typed.trim());
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    find();
  };

  return (
    <div role="group" aria-labelledby={legendId} className={supportStyles.operators}>
      <p id={legendId} className={operatorStyles.groupTitle}>
        {t('support.departments.form.operators')}
      </p>
      <p className={styles.small}>{t('support.departments.form.operatorsHint')}</p>
      {selected.length > 0 ? (
        <ul className={supportStyles.emails} aria-label={t('support.departments.form.chosen')}>
          {selected.map((operator) => (
            <li key={operator.id} className={supportStyles.operatorRow}>
              <span>{operator.email}</span>
              <Button
                variant="secondary"
                onClick={() => {
                  onRemove(operator.id);
                  searchRef.current?.focus();
                }}
              >
                {t('support.departments.form.remove')}{' '}
                <span className="visually-hidden">{operator.email}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.small}>{t('support.departments.allOperators')}</p>
      )}
      <div className={supportStyles.canned}>
        <TextField
          ref={searchRef}
          label={t('support.departments.form.find')}
          type="search"
          autoComplete="off"
          spellCheck={false}
          maxLength={254}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <Button variant="secondary" loading={users.isFetching} onClick={find}>
          {t('support.departments.form.findSubmit')}
        </Button>
      </div>
      {search && users.currentData ? (
        found.length > 0 ? (
          <ul className={supportStyles.emails} aria-label={t('support.departments.form.found')}>
            {found.map((user) => (
              <li key={user.id} className={supportStyles.operatorRow}>
                <span>
                  {user.email} <span className={styles.small}>{user.name}</span>
                </span>
                <Button
                  variant="secondary"
                  onClick={() => {
                    onAdd({ id: user.id, email: user.email, name: user.name });
                    searchRef.current?.focus();
                  }}
                >
                  {t('support.departments.form.addOperator')}{' '}
                  <span className="visually-hidden">{user.email}</span>
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className={styles.small} role="status">
            {t('support.departments.form.noneFound', { search })}
          </p>
        )
      ) : null}
      {users.isError && !users.isFetching ? (
        <p className={styles.errorText} role="alert">
          {t('support.departments.form.findFailed')}
        </p>
      ) : null}
    </div>
  );
}
