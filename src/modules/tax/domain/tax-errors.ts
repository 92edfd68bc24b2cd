import { DomainError, errorCatalog } from '../../../../libs/shared-kernel/src';

/**
 * Every code the tax books answer of their own, with its HTTP status: the one place each is
 * declared (compiler-checked, D3). VALIDATION_ERROR and AMOUNT_OUT_OF_RANGE_ERROR are the shared kernel's.
 */
export const TAX_ERROR_STATUS = {
  RCV_IMPORT_NOT_FOUND_ERROR: 404,
  TAX_JURISDICTION_NOT_SUPPORTED_ERROR: 409,
} as const;

export const taxError = errorCatalog(TAX_ERROR_STATUS);

export const taxJurisdictionNotSupported = (country: string, currency: string) =>
  taxError('TAX_JURISDICTION_NOT_SUPPORTED_ERROR', 'The Chilean tax books are kept for Entities in Chile (CL) keeping their books in CLP', { country, currency });

export const rcvImportNotFound = (period: string, direction: string) =>
  taxError('RCV_IMPORT_NOT_FOUND_ERROR', 'No RCV file was imported for this period and direction', { period, direction });

/**
 * A malformed RCV file: 400 VALIDATION_ERROR naming the line of the file (the header is line 1),
 * as a spreadsheet shows it. Nothing is written.
 */
export function rcvRowInvalid(row: number, reason: string): DomainError {
  const message = `row ${row}: ${reason}`;
  return new DomainError('VALIDATION_ERROR', `file ${message}`, { row, reason, errors: [{ path: 'file', message }] });
}
