/**
 * Dynamic WHERE and SET clauses, so repositories stop numbering `$n` placeholders by hand. Values
 * always travel as parameters; column names and conditions are the caller's fixed SQL text.
 *
 *   const w = new Where(orgId, 'u.organization_id');
 *   if (f.status) w.eq('u.status', f.status);
 *   q.query(`SELECT ... WHERE ${w.sql} ORDER BY id ${w.page(limit + 1, offset)}`, w.params);
 */
export class Where {
  readonly params: unknown[];
  private readonly conditions: string[];

  /** Every statement is scoped by organization: the clause starts with `<orgColumn> =` the first parameter. */
  constructor(orgId: string, orgColumn = 'organization_id') {
    this.params = [];
    this.conditions = [];
    this.conditions.push(`${orgColumn} = ${this.param(orgId)}`);
  }

  /** Adds a parameter and answers its placeholder (`$3`). */
  param(value: unknown): string {
    return `$${this.params.push(value)}`;
  }

  /** `column = value`. */
  eq(column: string, value: unknown): this {
    this.conditions.push(`${column} = ${this.param(value)}`);
    return this;
  }

  /** Any condition; `p` turns a value into its placeholder: `w.and((p) => \`name ILIKE ${p(pattern)}\`)`. */
  and(condition: string | ((p: (value: unknown) => string) => string)): this {
    this.conditions.push(typeof condition === 'string' ? condition : condition((v) => this.param(v)));
    return this;
  }

  get sql(): string {
    return this.conditions.join(' AND ');
  }

  /** `LIMIT $n OFFSET $m`, their values added after the filters'. */
  page(limit: number, offset: number): string {
    return `LIMIT ${this.param(limit)} OFFSET ${this.param(offset)}`;
  }
}

/** The patch without its undefined entries (a field sent as undefined is a field not sent). */
export function defined<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * `col = $n, ...` for the columns of `columns` present in `patch` (in that order), numbered from
 * `first`; `encode` turns a value into its parameter (JSON columns, bigints).
 */
export function setClause<K extends string>(
  patch: Partial<Record<K, unknown>>,
  columns: readonly K[],
  first: number,
  encode: (column: K, value: unknown) => unknown = (_c, v) => v,
): { sql: string; params: unknown[]; columns: K[] } {
  const present = columns.filter((c) => c in patch);
  return {
    sql: present.map((c, i) => `${c} = $${first + i}`).join(', '),
    params: present.map((c) => encode(c, patch[c])),
    columns: present,
  };
}
