import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { BankAccountResponse } from '../../../banking';
import { IsUuid, NotBlank } from '../../../../platform/http/validators';
import { BANK_PROVIDERS, CONNECTION_STATUSES, HOLDER_TYPES, type BankProviderKind, type ConnectionStatus, type HolderType } from '../../domain/bank-connection';

const TOKEN_MAX = 2000;
const PROVIDER_ACCOUNT_ID_MAX = 200;

export class LinkIntentBody {
  @ApiProperty({ enum: BANK_PROVIDERS, description: 'An enabled provider (D77: sandbox unless disabled; fintoc with its secret key)' })
  @IsIn(BANK_PROVIDERS)
  provider: BankProviderKind;

  @ApiPropertyOptional({ enum: HOLDER_TYPES, default: 'business', description: "The link's holder type (D67a)" })
  @IsOptional()
  @IsIn(HOLDER_TYPES)
  holderType?: HolderType;
}

export class LinkIntentResponse {
  @ApiProperty({ enum: BANK_PROVIDERS }) provider: BankProviderKind;
  @ApiProperty({ description: "Opens the provider's widget (the sandbox has none: send it back as the exchange token)" }) widgetToken: string;
  @ApiProperty({ description: "The provider's public key for its widget (the sandbox's is a placeholder)" }) publicKey: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

/** The finalize body: one shape for every provider today, discriminated on `provider`. */
export class FinalizeConnectionBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ enum: BANK_PROVIDERS, description: 'Discriminator of the body' }) @IsIn(BANK_PROVIDERS) provider: BankProviderKind;
  @ApiProperty({ description: "The widget's exchange token (sandbox: the link intent's widget token)", maxLength: TOKEN_MAX })
  @IsString()
  @NotBlank()
  @MaxLength(TOKEN_MAX)
  exchangeToken: string;
}

export class ReconnectBody {
  @ApiProperty({ description: 'A fresh exchange token from the widget', maxLength: TOKEN_MAX }) @IsString() @NotBlank() @MaxLength(TOKEN_MAX) exchangeToken: string;
}

export class PublishAccountsBody {
  @ApiProperty({ type: [String], minItems: 1, maxItems: 100 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ArrayUnique()
  @IsString({ each: true })
  @Matches(/\S/, { each: true, message: '$property must not be blank' })
  @MaxLength(PROVIDER_ACCOUNT_ID_MAX, { each: true })
  providerAccountIds: string[];
}

export class AttachFeedBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() bankAccountId: string;
  @ApiProperty({ description: 'A discovered account of the connection', maxLength: PROVIDER_ACCOUNT_ID_MAX })
  @IsString()
  @NotBlank()
  @MaxLength(PROVIDER_ACCOUNT_ID_MAX)
  providerAccountId: string;
}

export class CreateFedBankAccountBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty() @IsString() @NotBlank() @MaxLength(200) name: string;
  @ApiProperty({ format: 'uuid', description: 'An asset ledger account (the new Bank Account is of kind bank)' }) @IsUuid() ledgerAccountId: string;
  @ApiProperty({ maxLength: PROVIDER_ACCOUNT_ID_MAX }) @IsString() @NotBlank() @MaxLength(PROVIDER_ACCOUNT_ID_MAX) providerAccountId: string;
}

export class BankConnectionWithFedAccountsResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty({ enum: BANK_PROVIDERS }) provider: BankProviderKind;
  @ApiProperty() institutionName: string;
  @ApiProperty() holderName: string;
  @ApiProperty({ enum: CONNECTION_STATUSES, description: 'login_required after a credential failure, error after any other provider failure' }) status: ConnectionStatus;
  @ApiProperty({ type: String, nullable: true, description: "The last provider failure's message, null when active" }) lastError: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: [BankAccountResponse], description: 'The Bank Accounts this connection feeds' }) fedBankAccounts: BankAccountResponse[];
}

export class BalancesResponse {
  @ApiProperty({ type: 'integer', description: 'Minor units' }) available: number;
  @ApiProperty({ type: 'integer', description: 'Minor units' }) current: number;
}

export class DiscoveredAccountResponse {
  @ApiProperty() providerAccountId: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: "The account number as the provider writes it ('' when not observed)" }) number: string;
  @ApiProperty({ example: 'checking_account' }) type: string;
  @ApiProperty({ example: 'CLP' }) currency: string;
  @ApiProperty({ type: BalancesResponse, nullable: true, description: 'null when not observed' }) balances: BalancesResponse | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) refreshedAt: string | null;
  @ApiProperty({ description: "Listed by this read of the provider; false for a fed account the provider no longer lists" }) observed: boolean;
  @ApiPropertyOptional({ type: BankAccountResponse, description: 'The Bank Account this account feeds, when any' }) fedBankAccount?: BankAccountResponse;
}

export class DeletedBankConnectionResponse {
  @ApiProperty({ format: 'uuid' }) deletedBankConnectionId: string;
  @ApiProperty({ type: [String], format: 'uuid', description: 'Each Bank Account that lost its feed' }) unfedBankAccountIds: string[];
}

export class SyncResultResponse {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Movements landed by this sync' }) landedCount: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Movements of the window already landed' }) skippedCount: number;
}
