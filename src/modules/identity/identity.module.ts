import { Inject, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { CredentialVerifier } from '../../platform/auth/ports';
import type { RuntimeConfig } from '../../platform/config/app-config';
import { ApiKeysService } from './application/api-keys.service';
import { CredentialVerificationService } from './application/credential-verification.service';
import { OnboardingService } from './application/onboarding.service';
import { SetPasswordService } from './application/set-password.service';
import { SignInService } from './application/sign-in.service';
import { StaffProvisioningService } from './application/staff-provisioning.service';
import { UserDirectoryService } from './application/user-directory.service';
import {
  ApiKeyRepository,
  PasswordHasher,
  SecretGenerator,
  SetPasswordTokens,
  SignInFailures,
  UserRepository,
  UserSessions,
} from './domain/identity-ports';
import { Argon2PasswordHasher } from './infrastructure/argon2-password-hasher';
import { CryptoSecretGenerator } from './infrastructure/crypto-secret-generator';
import { ApiKeysController } from './infrastructure/http/api-keys.controller';
import { AuthController } from './infrastructure/http/auth.controller';
import { OnboardingController } from './infrastructure/http/onboarding.controller';
import { SessionMiddleware } from './infrastructure/http/session';
import {
  PgSignInFailures,
  PgUserSessions,
  TypeOrmApiKeyRepository,
  TypeOrmSetPasswordTokens,
  TypeOrmUserRepository,
} from './infrastructure/persistence/identity.repositories';

@Module({
  controllers: [AuthController, ApiKeysController, OnboardingController],
  providers: [
    { provide: UserRepository, useClass: TypeOrmUserRepository },
    { provide: ApiKeyRepository, useClass: TypeOrmApiKeyRepository },
    { provide: SetPasswordTokens, useClass: TypeOrmSetPasswordTokens },
    { provide: UserSessions, useClass: PgUserSessions },
    { provide: SignInFailures, useClass: PgSignInFailures },
    { provide: PasswordHasher, useClass: Argon2PasswordHasher },
    { provide: SecretGenerator, useClass: CryptoSecretGenerator },
    { provide: CredentialVerifier, useClass: CredentialVerificationService },
    SignInService,
    ApiKeysService,
    OnboardingService,
    SetPasswordService,
    StaffProvisioningService,
    UserDirectoryService,
    SessionMiddleware,
  ],
  exports: [CredentialVerifier, SessionMiddleware, StaffProvisioningService, UserDirectoryService, ApiKeysService],
})
export class IdentityModule implements OnApplicationBootstrap {
  private readonly logger = new Logger('Identity');

  constructor(
    private readonly staff: StaffProvisioningService,
    @Inject(ConfigService) private readonly config: ConfigService<RuntimeConfig, true>,
  ) {}

  /** D10: the first staff User from BOOTSTRAP_STAFF_EMAIL and BOOTSTRAP_STAFF_PASSWORD. */
  async onApplicationBootstrap(): Promise<void> {
    const bootstrap = this.config.get('bootstrapStaff', { infer: true });
    if (!bootstrap) return;
    const { created } = await this.staff.ensureStaff(bootstrap.email, bootstrap.password);
    if (created) this.logger.log(`created the bootstrap staff User ${bootstrap.email}`);
  }
}
