import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '../../../platform/clock/clock';
import { translateForeignKeyViolation, translateUniqueViolation } from '../../../platform/database/pg-errors';
import {
  Dimension,
  dimensionAlreadyExists,
  dimensionHasValues,
  dimensionNameAlreadyExists,
  dimensionNotFound,
  DimensionValue,
  dimensionValueAlreadyExists,
  dimensionValueCodeAlreadyExists,
  dimensionValueHasChildren,
  dimensionValueInUse,
  dimensionValueNotFound,
  dimensionValueParentCycle,
  dimensionValueParentNotFound,
} from '../domain/books-dimensions';
import { LedgerUsageQueries } from '../domain/entry-ports';
import { DimensionRepository } from '../domain/ledger-ports';

@Injectable()
export class DimensionsService {
  constructor(
    private readonly dimensions: DimensionRepository,
    /** The ledger's lines: is a value tagged on any line? */
    private readonly lines: LedgerUsageQueries,
    private readonly clock: Clock,
  ) {}

  list(entityId: string): Promise<Dimension[]> {
    return this.dimensions.list(entityId);
  }

  async get(entityId: string, dimensionId: string): Promise<Dimension> {
    const dimension = await this.dimensions.find(entityId, dimensionId);
    if (!dimension) throw dimensionNotFound({ dimensionId });
    return dimension;
  }

  @Transactional()
  async create(entityId: string, input: { id: string; name: string }): Promise<Dimension> {
    if (await this.dimensions.find(entityId, input.id)) throw dimensionAlreadyExists({ dimensionId: input.id });
    const now = this.clock.now();
    const dimension: Dimension = { entityId, id: input.id, name: input.name.trim(), createdAt: now, updatedAt: now };
    if ((await translateUniqueViolation(() => this.dimensions.insert(dimension), () => dimensionAlreadyExists({ dimensionId: dimension.id }))) === 'name_taken') throw dimensionNameAlreadyExists({ name: dimension.name });
    return dimension;
  }

  /** Locked first, as delete does: a rename that waited for a delete finds no Dimension (404). */
  @Transactional()
  async rename(entityId: string, dimensionId: string, name: string): Promise<Dimension> {
    await this.dimensions.lockDimension(entityId, dimensionId);
    const dimension = { ...(await this.get(entityId, dimensionId)), name: name.trim(), updatedAt: this.clock.now() };
    if ((await this.dimensions.save(dimension)) === 'name_taken') throw dimensionNameAlreadyExists({ name: dimension.name });
    return dimension;
  }

  @Transactional()
  async delete(entityId: string, dimensionId: string): Promise<Dimension> {
    await this.dimensions.lockDimension(entityId, dimensionId);
    const dimension = await this.get(entityId, dimensionId);
    if (await this.dimensions.hasValues(entityId, dimensionId)) throw dimensionHasValues({ dimensionId });
    await this.dimensions.delete(entityId, dimensionId);
    return dimension;
  }

  async values(entityId: string, dimensionId: string): Promise<DimensionValue[]> {
    await this.get(entityId, dimensionId);
    return this.dimensions.values(entityId, dimensionId);
  }

  @Transactional()
  async createValue(entityId: string, dimensionId: string, input: { id: string; code: string; name: string; parentId: string | null }): Promise<DimensionValue> {
    await this.dimensions.lockDimension(entityId, dimensionId);
    await this.get(entityId, dimensionId);
    if (await this.dimensions.findValue(entityId, input.id)) throw dimensionValueAlreadyExists({ dimensionValueId: input.id });
    if (input.parentId) await this.parentIn(entityId, dimensionId, input.parentId);
    const now = this.clock.now();
    const value: DimensionValue = { entityId, dimensionId, id: input.id, code: input.code.trim(), name: input.name.trim(), parentId: input.parentId, createdAt: now, updatedAt: now };
    if ((await translateUniqueViolation(() => this.dimensions.insertValue(value), () => dimensionValueAlreadyExists({ dimensionValueId: value.id }))) === 'code_taken') throw dimensionValueCodeAlreadyExists({ code: value.code });
    return value;
  }

  @Transactional()
  async updateValue(
    entityId: string,
    dimensionId: string,
    valueId: string,
    change: { code?: string; name?: string; parentId?: string | null },
  ): Promise<DimensionValue> {
    await this.dimensions.lockDimension(entityId, dimensionId);
    const value = await this.valueIn(entityId, dimensionId, valueId);
    if (change.parentId) {
      if (change.parentId === valueId) throw dimensionValueParentCycle({ dimensionValueId: valueId, parentId: change.parentId });
      await this.parentIn(entityId, dimensionId, change.parentId);
      if ((await this.dimensions.ancestorIds(entityId, change.parentId)).includes(valueId)) {
        throw dimensionValueParentCycle({ dimensionValueId: valueId, parentId: change.parentId });
      }
    }
    const next: DimensionValue = {
      ...value,
      code: change.code !== undefined ? change.code.trim() : value.code,
      name: change.name !== undefined ? change.name.trim() : value.name,
      parentId: change.parentId !== undefined ? change.parentId : value.parentId,
      updatedAt: this.clock.now(),
    };
    if ((await this.dimensions.saveValue(next)) === 'code_taken') throw dimensionValueCodeAlreadyExists({ code: next.code });
    return next;
  }

  /**
   * The value is locked before its use is looked up: a posting or line change tagging it (which
   * holds it while it writes) commits first and is seen, or waits and then finds no value (404).
   */
  @Transactional()
  async deleteValue(entityId: string, dimensionId: string, valueId: string): Promise<DimensionValue> {
    await this.dimensions.lockDimension(entityId, dimensionId);
    await this.dimensions.lockValue(entityId, valueId);
    const value = await this.valueIn(entityId, dimensionId, valueId);
    if (await this.dimensions.hasChildren(entityId, valueId)) throw dimensionValueHasChildren({ dimensionValueId: valueId });
    if (await this.lines.dimensionValueIsTagged(entityId, valueId)) throw dimensionValueInUse({ dimensionValueId: valueId });
    // Tagged on a line of an unbooked or cancelled entry: history keeps the tag.
    await translateForeignKeyViolation(() => this.dimensions.deleteValue(entityId, valueId), () => dimensionValueInUse({ dimensionValueId: valueId }));
    return value;
  }

  private async valueIn(entityId: string, dimensionId: string, valueId: string): Promise<DimensionValue> {
    await this.get(entityId, dimensionId);
    const value = await this.dimensions.findValue(entityId, valueId);
    if (!value || value.dimensionId !== dimensionId) throw dimensionValueNotFound({ dimensionValueId: valueId });
    return value;
  }

  private async parentIn(entityId: string, dimensionId: string, parentId: string): Promise<void> {
    const parent = await this.dimensions.findValue(entityId, parentId);
    if (!parent || parent.dimensionId !== dimensionId) throw dimensionValueParentNotFound({ parentId });
  }
}
