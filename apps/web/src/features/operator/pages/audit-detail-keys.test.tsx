import { screen, within } from '@testing-library/react';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en/operator.json';
import ru from '../../../locales/ru/operator.json';
import { adminUser, auditEntry, openOperator, page, stubOperatorApi } from '../test-utils';
import { inReadingOrder } from '../lib/audit-order';

/**
 * Every key the API writes into an audit row's `details` has a label in both languages, so the
 * audit log never shows an operator raw snake_case. The keys are read from the API's source: the
 * `details` of every `auditRepository.insert` call, followed through what builds them (object
 * literals, spreads, conditionals, the helpers that pass details through — auditServer,
 * auditTicket… — functions returning an object, and a parameter's declared type), and the
 * `jsonb_build_object` of SQL inserting into audit_log. Whatever the scan cannot follow fails the
 * test with its place, rather than being skipped: the list stays complete or the test says why.
 */

const repo = join(import.meta.dirname, '../../../../../..');
const apiSource = join(repo, 'apps/api/src');

function sourcePaths(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcePaths(path);
    return /(?<!\.test)\.ts$/.test(entry.name) ? [path] : [];
  });
}

type FunctionNode =
  ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression;

function nodesOf(root: ts.Node): ts.Node[] {
  const nodes: ts.Node[] = [];
  const visit = (node: ts.Node) => {
    nodes.push(node);
    ts.forEachChild(node, visit);
  };
  visit(root);
  return nodes;
}

const isFunction = (node: ts.Node): node is FunctionNode =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node);

/** A function's name: its own, or the variable's or property's it is assigned to. */
function nameOf(fn: FunctionNode): string | undefined {
  if (fn.name && ts.isIdentifier(fn.name)) return fn.name.text;
  const { parent } = fn;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return ts.isIdentifier(parent.name) ? parent.name.text : undefined;
  return undefined;
}

const propertyName = (name: ts.PropertyName): string | undefined =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;

/** Scans the API's source for the keys of audit details. */
function scanAuditDetails() {
  const files = sourcePaths(apiSource).map((path) =>
    ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true),
  );
  const nodes = new Map(files.map((file) => [file, nodesOf(file)]));
  const keys = new Map<string, string>();
  const problems: string[] = [];
  const visited = new Map<ts.Node, Set<string>>();
  let inserts = 0;

  const place = (node: ts.Node) => {
    const file = node.getSourceFile();
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    return `${relative(repo, file.fileName)}:${line + 1}`;
  };
  const problem = (node: ts.Node, what: string) =>
    problems.push(`${place(node)}: ${what}: ${node.getText().slice(0, 80)}`);
  const addKey = (key: string, node: ts.Node) => {
    if (!keys.has(key)) keys.set(key, place(node));
  };

  /** The functions a name calls in `file`: its own of that name, else any file's. */
  function functionsNamed(name: string, file: ts.SourceFile): FunctionNode[] {
    const named = (f: ts.SourceFile) =>
      nodes
        .get(f)!
        .filter((node): node is FunctionNode => isFunction(node) && nameOf(node) === name);
    const own = named(file);
    return own.length > 0 ? own : files.flatMap(named);
  }

  /** The calls of a function by its name, in its file and the files importing it. */
  function callsOf(fn: FunctionNode): ts.CallExpression[] {
    const name = nameOf(fn);
    if (!name) return [];
    const home = fn.getSourceFile();
    return files
      .filter(
        (file) =>
          file === home ||
          file.statements.some(
            (statement) =>
              ts.isImportDeclaration(statement) &&
              statement.importClause?.namedBindings &&
              ts.isNamedImports(statement.importClause.namedBindings) &&
              statement.importClause.namedBindings.elements.some((e) => e.name.text === name),
          ),
      )
      .flatMap((file) => nodes.get(file)!)
      .filter(
        (node): node is ts.CallExpression =>
          ts.isCallExpression(node) &&
          ts.isIdentifier(node.expression) &&
          node.expression.text === name,
      );
  }

  /** What a function returns (not its inner functions' returns). */
  function returnsOf(fn: FunctionNode): ts.Expression[] {
    if (!fn.body) return [];
    if (!ts.isBlock(fn.body)) return [fn.body];
    const found: ts.Expression[] = [];
    const visit = (node: ts.Node) => {
      if (isFunction(node)) return;
      if (ts.isReturnStatement(node) && node.expression) found.push(node.expression);
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(fn.body, visit);
    return found;
  }

  /** The parameter or variable an identifier names, from the innermost scope out. */
  function declarationOf(id: ts.Identifier) {
    for (let node: ts.Node = id.parent; node; node = node.parent) {
      if (isFunction(node)) {
        const parameter = node.parameters.find(
          (p) => ts.isIdentifier(p.name) && p.name.text === id.text,
        );
        if (parameter) return parameter;
      }
      if (ts.isBlock(node) || ts.isSourceFile(node)) {
        for (const statement of node.statements) {
          if (!ts.isVariableStatement(statement)) continue;
          const variable = statement.declarationList.declarations.find(
            (d) => ts.isIdentifier(d.name) && d.name.text === id.text,
          );
          if (variable) return variable;
        }
      }
    }
    return undefined;
  }

  /** The property names of a declared type: a literal, or an alias or interface of the file. */
  function typeKeys(type: ts.TypeNode | undefined): string[] | undefined {
    if (!type) return undefined;
    const names = (members: ts.NodeArray<ts.TypeElement>) =>
      members.flatMap((m) => (m.name && propertyName(m.name) ? [propertyName(m.name)!] : []));
    if (ts.isTypeLiteralNode(type)) return names(type.members);
    if (!ts.isTypeReferenceNode(type) || !ts.isIdentifier(type.typeName)) return undefined;
    const name = type.typeName.text;
    if (['Partial', 'Required', 'Readonly'].includes(name))
      return typeKeys(type.typeArguments?.[0]);
    for (const statement of type.getSourceFile().statements) {
      if (ts.isTypeAliasDeclaration(statement) && statement.name.text === name)
        return typeKeys(statement.type);
      if (ts.isInterfaceDeclaration(statement) && statement.name.text === name)
        return names(statement.members);
    }
    return undefined;
  }

  /** Adds the keys of the object `node` evaluates to, taken `path` properties down. */
  function keysOf(node: ts.Expression, path: string[] = []): void {
    let expr = node;
    while (
      ts.isParenthesizedExpression(expr) ||
      ts.isAsExpression(expr) ||
      ts.isSatisfiesExpression(expr) ||
      ts.isNonNullExpression(expr) ||
      ts.isAwaitExpression(expr)
    )
      expr = expr.expression;
    const seen = visited.get(expr) ?? new Set();
    if (seen.has(path.join('.'))) return;
    visited.set(expr, seen.add(path.join('.')));

    if (ts.isObjectLiteralExpression(expr)) {
      const [wanted, ...rest] = path;
      for (const property of expr.properties) {
        if (ts.isSpreadAssignment(property)) {
          if (wanted === undefined) keysOf(property.expression);
          else problem(property, `a spread where "${wanted}" is looked for`);
          continue;
        }
        const name = property.name && propertyName(property.name);
        if (!name) problem(property, 'a computed key');
        else if (wanted === undefined) addKey(name, property);
        else if (name !== wanted) continue;
        else if (ts.isPropertyAssignment(property)) keysOf(property.initializer, rest);
        else if (ts.isShorthandPropertyAssignment(property)) keysOf(property.name, rest);
        else problem(property, `"${wanted}" is not a value`);
      }
      return;
    }
    if (ts.isConditionalExpression(expr)) {
      keysOf(expr.whenTrue, path);
      keysOf(expr.whenFalse, path);
      return;
    }
    if (ts.isBinaryExpression(expr)) {
      const operator = expr.operatorToken.kind;
      if (operator === ts.SyntaxKind.AmpersandAmpersandToken) return keysOf(expr.right, path);
      if (
        operator === ts.SyntaxKind.QuestionQuestionToken ||
        operator === ts.SyntaxKind.BarBarToken
      ) {
        keysOf(expr.left, path);
        keysOf(expr.right, path);
        return;
      }
    }
    if (ts.isPropertyAccessExpression(expr))
      return keysOf(expr.expression, [expr.name.text, ...path]);
    if (ts.isCallExpression(expr) && ts.isIdentifier(expr.expression)) {
      const functions = functionsNamed(expr.expression.text, expr.getSourceFile());
      if (functions.length === 0) problem(expr, 'a call of a function not found');
      for (const fn of functions) for (const value of returnsOf(fn)) keysOf(value, path);
      return;
    }
    if (ts.isIdentifier(expr)) {
      const declaration = declarationOf(expr);
      if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer)
        return keysOf(declaration.initializer, path);
      if (declaration && ts.isParameter(declaration)) {
        const declared = path.length === 0 ? typeKeys(declaration.type) : undefined;
        if (declared) {
          for (const key of declared) addKey(key, declaration);
          return;
        }
        // passed in: what the function's callers pass (and the default, if any)
        if (declaration.initializer) keysOf(declaration.initializer, path);
        const fn = declaration.parent as FunctionNode;
        const index = fn.parameters.indexOf(declaration);
        const calls = callsOf(fn);
        if (calls.length === 0) problem(expr, 'a parameter of a function with no calls found');
        for (const call of calls) {
          const argument = call.arguments[index];
          if (argument) keysOf(argument, path);
        }
        return;
      }
    }
    problem(expr, 'cannot tell its keys');
  }

  for (const file of files) {
    for (const node of nodes.get(file)!) {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.getText() === 'auditRepository.insert'
      ) {
        inserts += 1;
        const values = node.arguments[1];
        if (values) keysOf(values, ['details']);
        else problem(node, 'an insert without values');
      }
    }
    const text = file.text;
    // the one writer: every row goes through auditRepository (or the SQL below)
    if (/\.insert\(auditLog\)/.test(text) && !file.fileName.endsWith(join('db', 'audit.ts')))
      problems.push(`${relative(repo, file.fileName)}: inserts into auditLog itself`);
    for (const match of text.matchAll(/insert into audit_log\b/gi)) {
      inserts += 1;
      const statement = text.slice(match.index, text.indexOf('returning', match.index));
      const start = statement.indexOf('jsonb_build_object(');
      if (start < 0) {
        problems.push(
          `${relative(repo, file.fileName)}: SQL audit details not built by jsonb_build_object`,
        );
        continue;
      }
      // the arguments at depth 0: key, value, key, value…
      const args: string[] = [''];
      let depth = 0;
      for (const char of statement.slice(start + 'jsonb_build_object('.length)) {
        if (char === '(') depth += 1;
        if (char === ')' && depth-- === 0) break;
        if (char === ',' && depth === 0) args.push('');
        else args[args.length - 1] += char;
      }
      args.forEach((arg, i) => {
        if (i % 2 === 1) return;
        const key = /^'(\w+)'$/.exec(arg.trim())?.[1];
        if (key) {
          if (!keys.has(key)) keys.set(key, `${relative(repo, file.fileName)} (SQL)`);
        } else problems.push(`${relative(repo, file.fileName)}: SQL audit key ${arg.trim()}`);
      });
    }
  }
  return { keys, problems, inserts };
}

const scan = scanAuditDetails();
const apiKeys = [...scan.keys.keys()];

/**
 * Keys inside the objects of some details, which the scan does not open: a rate's `before`
 * (vps.rate_update), the periods' `before` and `after` (vps.discounts_update), the monitoring
 * prices' and the partner settings', a FAQ question's summary, a refused notification's
 * `expected` and `received`, a ticket's `department` (its names, shown as its value).
 */
const nestedKeys = [
  'id',
  'name',
  'cpu_cores',
  'ram_gb',
  'disk_gb',
  'location',
  'monthly_price',
  'active',
  'template_id',
  'months',
  'discount_percent',
  'account_month_price',
  'discounts',
  'reward_percents',
  'discount_tiers',
  'active_referrals',
  'discount',
  'group',
  'slug',
  'position',
  'published',
  'question_en',
  'amount',
  'currency',
  'name_en',
  'name_ru',
];

const labels: Record<'en' | 'ru', Record<string, string>> = {
  en: en.audit.detailKeys,
  ru: ru.audit.detailKeys,
};

describe('the audit details the API writes', () => {
  it('are all found in its source', () => {
    expect(scan.problems).toEqual([]);
    expect(scan.inserts).toBeGreaterThan(30);
    // one of each way a key gets there, so a scan that stopped following one fails here
    expect(apiKeys).toEqual(
      expect.arrayContaining([
        'promo_discount', // a literal
        'upgrade_id', // a function's returned object, spread (upgradeDetails)
        'machine_id', // through a helper's parameter (auditServer)
        'attempts', // auditOperation
        'wallet', // partner withdrawals' audit, a default parameter
        'files', // auditTicket
        'operator_ids', // auditSubject
        'previous_accounts', // a property of a parameter (paidChange's change.details)
        'cpu_cores', // a parameter's declared type, spread (RateFields)
        'question_en', // a function's returned object (summary)
        'driver', // the SQL of expired payments, and the refused notifications
        'currency', // the SQL only
      ]),
    );
    expect(apiKeys.length).toBeGreaterThan(80);
  });

  it.each(['en', 'ru'] as const)('have labels in %s', (language) => {
    const missing = [...apiKeys, ...nestedKeys]
      .filter((key) => !labels[language][key]?.trim())
      .map((key) => `${key} (${scan.keys.get(key) ?? 'nested'})`);
    expect(missing).toEqual([]);
  });

  it.each([
    ['en', 'Audit log'],
    ['ru', 'Журнал аудита'],
  ] as const)('show by their labels in %s, never as raw keys', async (language, tableName) => {
    const details = Object.fromEntries(apiKeys.map((key) => [key, 1]));
    stubOperatorApi(
      { 'GET /admin/audit': { body: page([auditEntry({ action: 'vps.order', details })]) } },
      { ...adminUser, language },
    );
    await openOperator('/operator/audit', { language });
    const table = await screen.findByRole('table', { name: tableName }, { timeout: 5000 });
    const [row] = within(table).getAllByRole('row').slice(1);
    const shown = within(row!)
      .getAllByRole('term')
      .map((term) => term.textContent);
    // in the page's reading order (an old value before its new one)
    expect(shown).toEqual(inReadingOrder(details).map(([key]) => labels[language][key]));
    expect(shown.filter((label) => label !== null && apiKeys.includes(label))).toEqual([]);
  });
});
