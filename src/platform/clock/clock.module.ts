import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from './clock';

@Global()
@Module({})
export class ClockModule {
  static forRoot(clock: Clock): DynamicModule {
    return { module: ClockModule, providers: [{ provide: Clock, useValue: clock }], exports: [Clock] };
  }
}
