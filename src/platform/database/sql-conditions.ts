/**
 * Collects the conditions of a WHERE clause with numbered parameters: `add('a = ?', x)` appends
 * the condition with `?` replaced by the next `$n`.
 */
export class SqlConditions {
  readonly values: unknown[];
  private readonly conditions: string[];

  constructor(conditions: string[], values: unknown[]) {
    this.conditions = [...conditions];
    this.values = [...values];
  }

  add(sql: string, ...params: unknown[]): this {
    let text = sql;
    for (const param of params) {
      this.values.push(param);
      text = text.replace('?', `$${this.values.length}`);
    }
    this.conditions.push(text);
    return this;
  }

  /** The next parameter's placeholder, with its value pushed (e.g. for LIMIT). */
  parameter(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  get where(): string {
    return this.conditions.join(' AND ');
  }
}
