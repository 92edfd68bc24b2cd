import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Matches, Max, Min, ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import { canonicalUuid, isIsoDate, isIsoDateTime, isRate, isUuid, nameProblem, normalizeName } from '../../../libs/shared-kernel/src';

/**
 * A calendar date `YYYY-MM-DD` that exists, from 1000-01-01 through 9999-12-31. Dates are judged
 * once, in the shared kernel (dates.ts): what passes here, PostgreSQL takes.
 */
export function IsIsoDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isIsoDate', validator: { validate: isIsoDate, defaultMessage: () => '$property must be an ISO date (YYYY-MM-DD) from 1000-01-01 through 9999-12-31' } },
    options,
  );
}

/**
 * A timestamp: a date-time with an explicit offset (`Z` or ±HH:MM; isIsoDateTime). A date alone,
 * or a date-time without an offset (whose instant would depend on the server's time zone), is not.
 */
export function IsIsoDateTime(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isIsoDateTime', validator: { validate: isIsoDateTime, defaultMessage: () => '$property must be an ISO date-time with an offset (Z or ±HH:MM)' } },
    options,
  );
}

/** A calendar date (IsIsoDate) or a date-time with an offset (isIsoDateTime). */
export function IsIsoDateOrDateTime(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIsoDateOrDateTime',
      validator: {
        validate: (value: unknown) => isIsoDate(value) || isIsoDateTime(value),
        defaultMessage: () => '$property must be an ISO date or a date-time with an offset (Z or ±HH:MM)',
      },
    },
    options,
  );
}

/** Page size from the query string: an integer from 1 to `max` (D8). */
export function PageLimit(max = 100): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value)),
    IsInt(),
    Min(1),
    Max(max),
  );
}

/**
 * A UUID in its 8-4-4-4-12 hex form, whatever its version and variant nibbles: the shape the
 * path parameters accept (UuidParamsPipe), so an id accepted in a path is accepted in a body or
 * a query too. (class-validator's IsUUID('all') refuses version 0 and other variants.) An id in
 * upper case is taken in lower case.
 */
export function IsUuid(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    // Ids are kept in their canonical (lower-case) form, as path ids are (UuidParamsPipe).
    Transform(({ value }) => (Array.isArray(value) ? value.map(canonicalUuid) : canonicalUuid(value))),
    ValidateBy({ name: 'isUuid', validator: { validate: isUuid, defaultMessage: () => '$property must be a UUID' } }, options),
  );
}

/** Opaque cursor of a keyset page. */
export const IsCursor = () => Matches(/^[A-Za-z0-9_-]{1,512}$/, { message: '$property must be a cursor returned by a previous page' });

/** Optional, but when present it must be valid: `null` is not a way to leave a field out. */
export const IfPresent = () => ValidateIf((_, value) => value !== undefined);

/** Names and codes are stored trimmed: one of only spaces would be stored empty. */
export const NotBlank = () => Matches(/\S/, { message: '$property must not be blank' });

/**
 * D30b, for every name and code: normalised to NFC and trimmed before it is judged and stored
 * (so NFC and NFD spellings are one name), no control or format characters (zero-width ones
 * included), and a visible character other than a blank look-alike (U+2800, U+3164...).
 */
export function VisibleName(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? normalizeName(value) : value)),
    ValidateBy({
      name: 'visibleName',
      validator: {
        // A value that is not a string is IsString's to report, an empty one IsNotEmpty's.
        validate: (value: unknown) => typeof value !== 'string' || value === '' || nameProblem(value) === null,
        defaultMessage: (args) => `${args?.property} ${nameProblem(String(args?.value))}`,
      },
    }),
  );
}

/** An optional reference that `null` clears: absent, null, or a UUID (documented for OpenAPI). */
export function OptionalNullableUuid(description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description }),
    IsOptional(),
    ValidateIf((_, value) => value !== null),
    IsUuid(),
  );
}

/** An optional enum value that `null` clears. */
export function OptionalNullableIn(values: readonly string[], description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ enum: values, nullable: true, description }),
    IsOptional(),
    ValidateIf((_, value) => value !== null),
    IsIn(values as string[]),
  );
}

/** D7: a rate is a decimal string (`^[0-9]{1,12}(\.[0-9]{1,12})?$`) greater than zero. */
export function IsRate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isRate', validator: { validate: isRate, defaultMessage: () => '$property must be a decimal string greater than zero, such as 950.25' } },
    options,
  );
}
