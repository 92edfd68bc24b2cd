import { Injectable } from '@nestjs/common';
import { recommendedRecordNotFound } from '../domain/recommendation-errors';
import { featuresOf, recommend, Recommendation } from '../domain/similarity';
import { BookingHistory, RecordKind } from './recommendation-ports';

/**
 * Booked records compared per answer (a bound on the work of one answer, issue 22): the newest 300
 * of the same counterparty RUT and the newest 300 sharing a description word. Every way the
 * counterparty was booked lately is among the first; close descriptions of other counterparties
 * among the second.
 */
export const CANDIDATE_LIMITS = { byRut: 300, byWords: 300 };


/** D73, D73a: how to book a bank movement or an invoice, from how similar records were booked. */
@Injectable()
export class RecommendationsService {
  constructor(private readonly history: BookingHistory) {}

  async recommend(entityId: string, kind: RecordKind, id: string): Promise<Recommendation[]> {
    const target = await this.history.target(entityId, kind, id);
    if (!target) throw recommendedRecordNotFound(kind, id);
    const features = featuresOf(target.taxId, target.description);
    if (features.ruts.length === 0 && features.words.length === 0) return [];
    const booked = await this.history.similarBooked(entityId, { kind, flow: target.flow, ruts: features.ruts, words: features.words, excludeId: id, limit: CANDIDATE_LIMITS });
    return recommend(features, booked);
  }
}
