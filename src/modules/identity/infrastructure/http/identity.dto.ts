import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsUuid } from '../../../../platform/http/validators';
import type {
  ApiKeyCreated,
  ApiKeyPermissions,
  ApiKeySummary,
  GlobalRole,
  OnboardingUser,
  SessionResponse,
  SessionUser,
  SetPasswordLink,
  SignInResponse,
} from '../../../../../libs/contracts/src';
import { IsIsoDateTime, VisibleName } from '../../../../platform/http/validators';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../domain/user';

export class SignInBody {
  @ApiProperty({ example: 'ana@example.cl' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  email: string;

  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_PASSWORD_LENGTH)
  password: string;
}

export class SetPasswordBody {
  @ApiProperty({ description: 'The token of the set-password link' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token: string;

  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH })
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH)
  @MaxLength(MAX_PASSWORD_LENGTH)
  newPassword: string;
}

export class SessionUserResponse implements SessionUser {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['staff', 'client'] }) role: GlobalRole;
}

export class SignInResult implements SignInResponse {
  @ApiProperty({ type: SessionUserResponse }) user: SessionUserResponse;
}

export class SessionResult implements SessionResponse {
  @ApiProperty({ type: SessionUserResponse }) user: SessionUserResponse;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class ReadPermissions {
  @ApiProperty({ type: [String], example: ['read'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1)
  @IsIn(['read'], { each: true })
  erp: ['read'];
}

export class MintApiKeyBody {
  @ApiProperty({ example: 'Accounting sync' })
  @IsString()
  @IsNotEmpty()
  @VisibleName()
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ format: 'date-time', nullable: true, description: 'Unbounded when absent' })
  @IsOptional()
  @IsIsoDateTime()
  expiresAt?: string | null;

  @ApiPropertyOptional({ type: ReadPermissions, nullable: true, description: 'Absent: full access of the owner; `{ "erp": ["read"] }`: read-only' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @ValidateNested()
  @Type(() => ReadPermissions)
  permissions?: ReadPermissions | null;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, description: 'Confines the key to one Entity the owner can reach' })
  @IsOptional()
  @IsUuid()
  entityId?: string | null;
}

export class ApiKeySummaryResponse implements ApiKeySummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() prefix: string;
  @ApiProperty({ type: ReadPermissions, nullable: true }) permissions: ApiKeyPermissions;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) entityId: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) lastUsedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revokedAt: string | null;
}

export class ApiKeyCreatedResponse implements ApiKeyCreated {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The secret, shown only here: `mea_<prefix>_<secret>`' }) key: string;
  @ApiProperty() prefix: string;
  @ApiProperty({ type: ReadPermissions, nullable: true }) permissions: ApiKeyPermissions;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) entityId: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class CreateUserBody {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  id: string;

  @ApiProperty({ example: 'ana@example.cl' })
  @IsEmail()
  @MaxLength(320)
  email: string;

  @ApiProperty({ example: 'Ana Pérez' })
  @IsString()
  @IsNotEmpty()
  @VisibleName()
  @MaxLength(200)
  name: string;

  @ApiProperty({ enum: ['staff', 'client'] })
  @IsIn(['staff', 'client'])
  role: GlobalRole;
}

export class FindUserQuery {
  @ApiProperty({ example: 'ana@example.cl' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  email: string;
}

export class OnboardingUserResponse implements OnboardingUser {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['staff', 'client'] }) role: GlobalRole;
  @ApiProperty() hasPassword: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class SetPasswordLinkResponse implements SetPasswordLink {
  @ApiProperty({ example: 'https://app.example.cl/set-password?token=...' }) url: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}
