import { isDeepStrictEqual } from 'node:util';
import { ArgumentMetadata, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { TransformationType } from 'class-transformer';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * Issue 25: the body of a request, validated by a plan compiled once per DTO class from the same
 * class-validator and class-transformer decorators, instead of walking their metadata on every
 * request. The decorators stay the single source of truth.
 *
 * The compiled plan only ever ACCEPTS: it builds the instance as class-transformer would (the
 * class, its nested `@Type` classes, the `@Transform`s) and runs the decorators' own validator
 * functions on it. Whenever it is not sure, because the body is invalid or takes a shape the plan
 * does not cover (an unknown property, a Set, a promise, a value that is no plain object...), it
 * hands the ORIGINAL body to Nest's ValidationPipe, which answers exactly as before: every refusal
 * and its `VALIDATION_ERROR` envelope come from the same code as they always did.
 */

/** A DTO class, as the metadata storages key it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyClass = abstract new (...args: any[]) => unknown;

type Condition = (object: object, value: unknown) => boolean;
interface Check {
  validate: (value: unknown, args: object) => unknown;
  each: boolean;
  constraints: unknown[];
  property: string;
}
interface PropertyPlan {
  name: string;
  conditions: Condition[];
  /** IsDefined first (as class-validator runs it), then the other validators. */
  checks: Check[];
  /** `@ValidateNested()`: the element class comes from the instance itself (its constructor). */
  nested: boolean;
  /** class-transformer's `@Type` of the property (a nested class), if any. */
  type: AnyClass | undefined;
  /** `@Transform`s that apply from plain to class, in order. */
  transforms: Array<(params: object) => unknown>;
}
interface ClassPlan {
  cls: new () => object;
  properties: Map<string, PropertyPlan>;
  list: PropertyPlan[];
}

/** The transform options class-transformer fills in when none are given (passed to `@Transform`s). */
const TRANSFORM_OPTIONS = Object.freeze({
  enableCircularCheck: false,
  enableImplicitConversion: false,
  excludeExtraneousValues: false,
  excludePrefixes: undefined,
  exposeDefaultValues: false,
  exposeUnsetFields: true,
  groups: undefined,
  ignoreDecorators: false,
  strategy: undefined,
  targetMaps: undefined,
  version: undefined,
});

/** Not decided by the plan: the full pipe decides. */
const UNSURE = Symbol('unsure');
class Unsure extends Error {}
const unsure = new Unsure();

function isPromiseLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const SUPPORTED = new Set<string>([
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.NESTED_VALIDATION,
  ValidationTypes.WHITELIST,
]);

/** Compiles DTO classes into plans, once each; a class the plan cannot express gets none (null). */
export class ValidationPlans {
  private readonly plans = new Map<AnyClass, ClassPlan | null>();

  constructor(private readonly options: { always?: boolean; strictGroups?: boolean; groups?: string[] } = {}) {}

  planOf(cls: AnyClass, targetSchema?: string): ClassPlan | null {
    const known = this.plans.get(cls);
    if (known !== undefined) return known;
    this.plans.set(cls, null); // a cycle compiles to "no plan"
    const plan = this.compile(cls, targetSchema);
    this.plans.set(cls, plan);
    return plan;
  }

  private compile(cls: AnyClass, targetSchema: string | undefined): ClassPlan | null {
    const storage = getMetadataStorage();
    // The very selection class-validator makes (ValidationExecutor.execute).
    const metadatas = storage.getTargetValidationMetadatas(cls, targetSchema as string, this.options.always ?? false, this.options.strictGroups ?? false, this.options.groups);
    if (metadatas.length === 0) return null; // forbidUnknownValues: the full pipe refuses it
    if (metadatas.some((m) => !SUPPORTED.has(m.type) || typeof m.propertyName !== 'string')) return null;
    if (defaultMetadataStorage.getStrategy(cls) !== 'none') return null;
    if (defaultMetadataStorage.getExposedMetadatas(cls).length > 0 || defaultMetadataStorage.getExcludedMetadatas(cls).length > 0) return null;
    const grouped = storage.groupByPropertyName(metadatas) as Record<string, ValidationMetadata[]>;
    const properties = new Map<string, PropertyPlan>();
    for (const [name, group] of Object.entries(grouped)) {
      // class-transformer skips a property the class defines as an accessor or a method.
      for (let proto = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
        if (Object.getOwnPropertyDescriptor(proto, name)) return null;
      }
      const checks: Check[] = [];
      const ordered = [...group.filter((m) => m.type === ValidationTypes.IS_DEFINED), ...group.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION)];
      for (const m of ordered) {
        for (const constraint of storage.getTargetValidatorConstraints(m.constraintCls)) {
          if (constraint.async) return null;
          const instance = constraint.instance as { validate: Check['validate'] };
          checks.push({ validate: instance.validate.bind(instance), each: m.each === true, constraints: m.constraints, property: m.propertyName });
        }
      }
      const typeMetadata = defaultMetadataStorage.findTypeMetadata(cls, name);
      let type: AnyClass | undefined;
      if (typeMetadata) {
        if (typeMetadata.options?.discriminator || !typeMetadata.typeFunction) return null;
        type = typeMetadata.typeFunction({ newObject: undefined, object: {}, property: name }) as AnyClass | undefined;
        if (typeof type !== 'function' || [String, Number, Boolean, Date, Buffer, Map, Set, Promise, Array, Object].includes(type as never)) return null;
      }
      const nested = group.some((m) => m.type === ValidationTypes.NESTED_VALIDATION);
      if (nested) {
        if (!type) return null;
        const schema = group.find((m) => m.type === ValidationTypes.NESTED_VALIDATION)!.target;
        if (!this.planOf(type, typeof schema === 'string' ? schema : (schema as { name: string }).name)) return null;
      } else if (type) {
        return null; // a nested class that nothing validates: rare, left to the full pipe
      }
      const transformMetadatas = defaultMetadataStorage.findTransformMetadatas(cls, name, TransformationType.PLAIN_TO_CLASS);
      if (transformMetadatas.some((t) => t.options && (t.options.since !== undefined || t.options.until !== undefined || (t.options.groups?.length ?? 0) > 0))) return null;
      properties.set(name, {
        name,
        conditions: group.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION).map((m) => m.constraints[0] as Condition),
        checks,
        nested,
        type,
        transforms: transformMetadatas.map((t) => t.transformFn as (params: object) => unknown),
      });
    }
    return { cls: cls as new () => object, properties, list: [...properties.values()] };
  }

  /**
   * The instance class-transformer would build from `plain` and class-validator would accept, or
   * UNSURE. Never mutates `plain`.
   */
  accept(plan: ClassPlan, plain: unknown): object | typeof UNSURE {
    try {
      const instance = this.build(plan, plain);
      return this.valid(plan, instance as Record<string, unknown>) ? instance : UNSURE;
    } catch (error) {
      if (error instanceof Unsure) return UNSURE;
      throw error;
    }
  }

  private build(plan: ClassPlan, plain: unknown): object {
    if (!isPlainObject(plain)) throw unsure;
    const instance = new plan.cls() as Record<string, unknown>;
    for (const key of Object.keys(plain)) {
      const property = plan.properties.get(key);
      if (!property) throw unsure; // whitelisting refuses it
      const raw = plain[key];
      let value: unknown;
      if (property.type) {
        const typePlan = this.plans.get(property.type)!;
        if (Array.isArray(raw)) value = raw.map((item) => this.build(typePlan, item));
        else value = this.build(typePlan, raw);
      } else if (Array.isArray(raw)) {
        value = raw.map((item) => {
          if (typeof item === 'object' && item !== null) throw unsure;
          return item;
        });
      } else if (typeof raw === 'object' && raw !== null) {
        throw unsure;
      } else {
        value = raw;
      }
      for (const transform of property.transforms) value = transform({ value, key, obj: plain, type: TransformationType.PLAIN_TO_CLASS, options: TRANSFORM_OPTIONS });
      instance[key] = value;
    }
    return instance;
  }

  private valid(plan: ClassPlan, instance: Record<string, unknown>): boolean {
    // Whitelisting, over what the instance holds (class fields included).
    for (const key of Object.keys(instance)) if (!plan.properties.has(key)) return false;
    for (const property of plan.list) {
      const value = instance[property.name];
      let applies = true;
      for (const condition of property.conditions) applies = condition(instance, value) && applies;
      if (!applies) continue;
      for (const check of property.checks) {
        const args = { targetName: instance.constructor?.name, property: check.property, object: instance, value, constraints: check.constraints };
        if (check.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)) {
          if (!Array.isArray(value)) return false;
          for (const item of value) if (!this.passes(check.validate(item, args))) return false;
        } else if (!this.passes(check.validate(value, args))) {
          return false;
        }
      }
      if (property.nested && value !== undefined) {
        const items = Array.isArray(value) ? value : [value];
        for (const item of items) {
          if (item === undefined && Array.isArray(value)) continue;
          if (!(item instanceof Object)) return false;
          const itemPlan = this.plans.get((item as object).constructor as AnyClass);
          if (!itemPlan || !this.valid(itemPlan, item as Record<string, unknown>)) return false;
        }
      }
    }
    return true;
  }

  private passes(result: unknown): boolean {
    if (isPromiseLike(result)) throw unsure;
    return Boolean(result);
  }
}

/** A deep copy of a parsed JSON value, keeping what a JSON round trip would not (-0). */
function copyOfJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyOfJson);
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = Object.create(Object.getPrototypeOf(value));
  for (const key of Object.keys(value)) Object.defineProperty(copy, key, { value: copyOfJson(value[key]), enumerable: true, writable: true, configurable: true });
  return copy;
}

/**
 * Nest's ValidationPipe, with request bodies first offered to their compiled plan: a body the
 * plan accepts is answered from it; any other goes through the full pipe, unchanged.
 */
export class CompiledValidationPipe extends ValidationPipe {
  /**
   * Set by the test harness (createTestApp): every body the plan accepts is run through the full
   * pipe too, and a difference fails the request, so the whole e2e suite checks the plans.
   */
  static checkAgainstFullPipe = false;

  private readonly plans: ValidationPlans;

  constructor(options: ValidationPipeOptions) {
    super(options);
    this.plans = new ValidationPlans({ always: options.always, strictGroups: options.strictGroups, groups: options.groups });
    if (!options.transform || !options.whitelist || !options.forbidNonWhitelisted || options.transformOptions || options.skipMissingProperties || options.skipNullProperties || options.skipUndefinedProperties) {
      throw new Error('CompiledValidationPipe covers whitelisting, transforming validation only');
    }
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype;
    if (metadata.type === 'body' && typeof metatype === 'function' && this.toValidate(metadata)) {
      const plan = this.plans.planOf(metatype);
      if (plan) {
        // The plan reads the body without changing it; the full pipe may (it strips keys in place).
        const copy = CompiledValidationPipe.checkAgainstFullPipe && isPlainObject(value) ? copyOfJson(value) : undefined;
        const accepted = this.plans.accept(plan, value);
        if (accepted !== UNSURE) {
          if (CompiledValidationPipe.checkAgainstFullPipe) await this.check(accepted, copy, metadata);
          return accepted;
        }
      }
    }
    return super.transform(value, metadata);
  }

  /** checkAgainstFullPipe: the full pipe must build the same instance. */
  private async check(accepted: object, copy: unknown, metadata: ArgumentMetadata): Promise<void> {
    const expected = await super.transform(copy, metadata).catch((error: unknown) => ({ refusedBy: error }));
    if (!isDeepStrictEqual(accepted, expected)) {
      throw new Error(`compiled validation differs from ValidationPipe on ${metadata.metatype?.name}: ${JSON.stringify(copy)}`);
    }
  }
}
