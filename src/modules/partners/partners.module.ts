import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LedgerModule, PartnerDirectory } from '../ledger';
import { ReferenceModule } from '../reference';
import { PartnersService } from './application/partners.service';
import { PartnerRepository } from './domain/partner';
import { PartnersController } from './infrastructure/http/partners.controller';
import { PartnerDirectoryAdapter } from './infrastructure/partner-directory.adapter';
import { DefaultPurchaseAccountUsage, LedgerLinesPartnerUsage } from './infrastructure/partner-usage.adapters';
import { TypeOrmPartnerRepository } from './infrastructure/persistence/partner.repository';

/** Global: the ledger checks partners through the PartnerDirectory port it provides. */
@Global()
@Module({
  imports: [LedgerModule, ReferenceModule, DiscoveryModule],
  controllers: [PartnersController],
  providers: [
    { provide: PartnerRepository, useClass: TypeOrmPartnerRepository },
    { provide: PartnerDirectory, useClass: PartnerDirectoryAdapter },
    PartnersService,
    LedgerLinesPartnerUsage,
    DefaultPurchaseAccountUsage,
  ],
  exports: [PartnersService, PartnerDirectory],
})
export class PartnersModule {}
