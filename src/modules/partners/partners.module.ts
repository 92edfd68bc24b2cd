import { Module, OnModuleInit } from '@nestjs/common';
import { AccountUsageProbes } from '../ledger/application/account-usage';
import { LedgerModule } from '../ledger/ledger.module';
import { ReferenceModule } from '../reference/reference.module';
import { PartnersService } from './application/partners.service';
import { PartnerRepository } from './domain/partner';
import { PartnersController } from './infrastructure/http/partners.controller';
import { TypeOrmPartnerRepository } from './infrastructure/persistence/partner.repository';

@Module({
  imports: [LedgerModule, ReferenceModule],
  controllers: [PartnersController],
  providers: [{ provide: PartnerRepository, useClass: TypeOrmPartnerRepository }, PartnersService],
  exports: [PartnersService],
})
export class PartnersModule implements OnModuleInit {
  constructor(
    private readonly usage: AccountUsageProbes,
    private readonly partners: PartnerRepository,
  ) {}

  /** A partner's default purchase account cannot be deleted (D31). */
  onModuleInit(): void {
    this.usage.register({
      reason: 'default_purchase_account',
      accountIdsInUse: (entityId, accountIds) => this.partners.defaultPurchaseAccountIds(entityId, accountIds),
    });
  }
}
