import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LedgerModule } from '../ledger';
import { ReferenceModule } from '../reference';
import { PartnersService } from './application/partners.service';
import { PartnerRepository } from './domain/partner';
import { PartnersController } from './infrastructure/http/partners.controller';
import { PartnerDirectoryAdapter } from './infrastructure/partner-directory.adapter';
import { DefaultPurchaseAccountUsage } from './infrastructure/partner-usage.adapters';
import { TypeOrmPartnerRepository } from './infrastructure/persistence/partner.repository';

/**
 * Partners of an Entity. Modules that use PartnersService import this module; the ledger checks
 * partners through its PartnerDirectoryPort, which this module provides (found by discovery).
 */
@Module({
  imports: [LedgerModule, ReferenceModule, DiscoveryModule],
  controllers: [PartnersController],
  providers: [
    { provide: PartnerRepository, useClass: TypeOrmPartnerRepository },
    PartnerDirectoryAdapter,
    PartnersService,
    DefaultPurchaseAccountUsage,
  ],
  exports: [PartnersService],
})
export class PartnersModule {}
