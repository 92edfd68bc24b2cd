import { Injectable } from '@nestjs/common';
import { recommendedRecordNotFound } from '../domain/recommendation-errors';
import { featuresOf, recommend, Recommendation } from '../domain/similarity';
import { BookingHistory, RecordKind } from './recommendation-ports';

/** Booked records compared per answer: the newest similar ones (a bound on the work of one answer). */
const CANDIDATES = 1000;

const notFound = (kind: RecordKind, id: string) => recommendedRecordNotFound(kind, id);

/** D73, D73a: how to book a bank movement or an invoice, from how similar records were booked. */
@Injectable()
export class RecommendationsService {
  constructor(private readonly history: BookingHistory) {}

  async recommend(entityId: string, kind: RecordKind, id: string): Promise<Recommendation[]> {
    const target = await this.history.target(entityId, kind, id);
    if (!target) throw notFound(kind, id);
    const features = featuresOf(target.taxId, target.description);
    if (features.ruts.length === 0 && features.words.length === 0) return [];
    const booked = await this.history.similarBooked(entityId, { kind, flow: target.flow, ruts: features.ruts, words: features.words, excludeId: id, limit: CANDIDATES });
    return recommend(features, booked);
  }
}
