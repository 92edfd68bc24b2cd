import { Global, Module, OnModuleInit } from '@nestjs/common';
import { AccountUsageProbes, LedgerModule, LedgerPartnerFacts, PartnerDirectory } from '../ledger';
import { ReferenceModule } from '../reference';
import { PartnersService } from './application/partners.service';
import { PartnerRepository } from './domain/partner';
import { PartnersController } from './infrastructure/http/partners.controller';
import { PartnerDirectoryAdapter } from './infrastructure/partner-directory.adapter';
import { TypeOrmPartnerRepository } from './infrastructure/persistence/partner.repository';

/** Global: the ledger checks partners through the PartnerDirectory port it provides. */
@Global()
@Module({
  imports: [LedgerModule, ReferenceModule],
  controllers: [PartnersController],
  providers: [
    { provide: PartnerRepository, useClass: TypeOrmPartnerRepository },
    { provide: PartnerDirectory, useClass: PartnerDirectoryAdapter },
    PartnersService,
  ],
  exports: [PartnersService, PartnerDirectory],
})
export class PartnersModule implements OnModuleInit {
  constructor(
    private readonly usage: AccountUsageProbes,
    private readonly partners: PartnerRepository,
    private readonly service: PartnersService,
    private readonly ledger: LedgerPartnerFacts,
  ) {}

  /** A partner's default purchase account cannot be deleted (D31). */
  onModuleInit(): void {
    this.usage.register({
      reason: 'default_purchase_account',
      accountIdsInUse: (entityId, accountIds) => this.partners.defaultPurchaseAccountIds(entityId, accountIds),
    });
    this.service.registerProbe({
      isNamed: (entityId, partnerId) => this.ledger.partnerIsNamed(entityId, partnerId),
      openBalances: (entityId, bookId, partnerIds) => this.ledger.partnerOpenBalances(entityId, bookId, partnerIds),
    });
  }
}
