import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { NoBody } from '../../../../platform/http/validation';
import { BooksService } from '../../application/books.service';
import { DimensionsService } from '../../application/dimensions.service';
import { validationError } from '../../domain/ledger-errors';
import {
  BookResponse,
  CreateBookBody,
  CreateDimensionValueBody,
  DimensionBody,
  DimensionResponse,
  DimensionValueResponse,
  RenameDimensionBody,
  UpdateDimensionValueBody,
} from './ledger.dto';
import { presentBook, presentDimension, presentValue } from './presenters';

@ApiTags('books')
@Authenticated()
@Controller('entities/:entityId/books')
export class BooksController {
  constructor(private readonly books: BooksService) {}

  @Get()
  @ApiOkResponse({ type: BookResponse, isArray: true, description: 'Books in creation order' })
  async list(@Param('entityId') entityId: string): Promise<BookResponse[]> {
    return (await this.books.list(entityId)).map(presentBook);
  }

  @Post()
  @Audit('book.create', 'book')
  @ApiCreatedResponse({ type: BookResponse, description: 'The new Book' })
  @ApiConflictResponse({ description: 'BOOK_ALREADY_EXISTS_ERROR or BOOK_NAME_ALREADY_EXISTS_ERROR' })
  async create(@Param('entityId') entityId: string, @Body() body: CreateBookBody): Promise<BookResponse> {
    return presentBook(await this.books.create(entityId, body));
  }

  @Get(':bookId')
  @ApiOkResponse({ type: BookResponse, description: 'The Book' })
  @ApiNotFoundResponse({ description: 'BOOK_NOT_FOUND_ERROR (also a Book of another Entity)' })
  async get(@Param('entityId') entityId: string, @Param('bookId') bookId: string): Promise<BookResponse> {
    return presentBook(await this.books.get(entityId, bookId));
  }
}

@ApiTags('dimensions')
@Authenticated()
@Controller('entities/:entityId/dimensions')
export class DimensionsController {
  constructor(private readonly dimensions: DimensionsService) {}

  @Get()
  @ApiOkResponse({ type: DimensionResponse, isArray: true, description: 'Dimensions by name' })
  async list(@Param('entityId') entityId: string): Promise<DimensionResponse[]> {
    return (await this.dimensions.list(entityId)).map(presentDimension);
  }

  @Post()
  @Audit('dimension.create', 'dimension')
  @ApiCreatedResponse({ type: DimensionResponse, description: 'The new Dimension' })
  @ApiConflictResponse({ description: 'DIMENSION_ALREADY_EXISTS_ERROR or DIMENSION_NAME_ALREADY_EXISTS_ERROR' })
  async create(@Param('entityId') entityId: string, @Body() body: DimensionBody): Promise<DimensionResponse> {
    return presentDimension(await this.dimensions.create(entityId, body));
  }

  @Patch(':dimensionId')
  @Audit('dimension.rename', 'dimension')
  @ApiOkResponse({ type: DimensionResponse, description: 'The renamed Dimension' })
  @ApiNotFoundResponse({ description: 'DIMENSION_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'DIMENSION_NAME_ALREADY_EXISTS_ERROR' })
  async rename(@Param('entityId') entityId: string, @Param('dimensionId') dimensionId: string, @Body() body: RenameDimensionBody): Promise<DimensionResponse> {
    return presentDimension(await this.dimensions.rename(entityId, dimensionId, body.name));
  }

  @Delete(':dimensionId')
  @Audit('dimension.delete', 'dimension')
  @ApiOkResponse({ type: DimensionResponse, description: 'The deleted Dimension' })
  @ApiNotFoundResponse({ description: 'DIMENSION_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'DIMENSION_HAS_VALUES_ERROR' })
  async delete(@Param('entityId') entityId: string, @Param('dimensionId') dimensionId: string, @NoBody() _body: unknown): Promise<DimensionResponse> {
    return presentDimension(await this.dimensions.delete(entityId, dimensionId));
  }

  @Get(':dimensionId/values')
  @ApiOkResponse({ type: DimensionValueResponse, isArray: true, description: 'Values of the Dimension, by code' })
  @ApiNotFoundResponse({ description: 'DIMENSION_NOT_FOUND_ERROR' })
  async values(@Param('entityId') entityId: string, @Param('dimensionId') dimensionId: string): Promise<DimensionValueResponse[]> {
    return (await this.dimensions.values(entityId, dimensionId)).map(presentValue);
  }

  @Post(':dimensionId/values')
  @Audit('dimension_value.create', 'dimension_value')
  @ApiCreatedResponse({ type: DimensionValueResponse, description: 'The new value' })
  @ApiNotFoundResponse({ description: 'DIMENSION_NOT_FOUND_ERROR or DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'DIMENSION_VALUE_ALREADY_EXISTS_ERROR or DIMENSION_VALUE_CODE_ALREADY_EXISTS_ERROR' })
  async createValue(
    @Param('entityId') entityId: string,
    @Param('dimensionId') dimensionId: string,
    @Body() body: CreateDimensionValueBody,
  ): Promise<DimensionValueResponse> {
    return presentValue(await this.dimensions.createValue(entityId, dimensionId, { ...body, parentId: body.parentId ?? null }));
  }

  @Patch(':dimensionId/values/:dimensionValueId')
  @Audit('dimension_value.update', 'dimension_value')
  @ApiOkResponse({ type: DimensionValueResponse, description: 'The updated value' })
  @ApiNotFoundResponse({ description: 'DIMENSION_NOT_FOUND_ERROR, DIMENSION_VALUE_NOT_FOUND_ERROR or DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'DIMENSION_VALUE_CODE_ALREADY_EXISTS_ERROR or DIMENSION_VALUE_PARENT_CYCLE_ERROR' })
  async updateValue(
    @Param('entityId') entityId: string,
    @Param('dimensionId') dimensionId: string,
    @Param('dimensionValueId') valueId: string,
    @Body() body: UpdateDimensionValueBody,
  ): Promise<DimensionValueResponse> {
    if (Object.keys(body).length === 0) throw validationError('body', 'must name at least one of code, name, parentId');
    return presentValue(await this.dimensions.updateValue(entityId, dimensionId, valueId, body));
  }

  @Delete(':dimensionId/values/:dimensionValueId')
  @Audit('dimension_value.delete', 'dimension_value')
  @ApiOkResponse({ type: DimensionValueResponse, description: 'The deleted value' })
  @ApiNotFoundResponse({ description: 'DIMENSION_NOT_FOUND_ERROR or DIMENSION_VALUE_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'DIMENSION_VALUE_HAS_CHILDREN_ERROR or DIMENSION_VALUE_IN_USE_ERROR' })
  async deleteValue(
    @Param('entityId') entityId: string,
    @Param('dimensionId') dimensionId: string,
    @Param('dimensionValueId') valueId: string,
    @NoBody() _body: unknown,
  ): Promise<DimensionValueResponse> {
    return presentValue(await this.dimensions.deleteValue(entityId, dimensionId, valueId));
  }
}
