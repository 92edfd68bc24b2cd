// The recommendations module's application API (D73).
export { RecommendationsModule } from './recommendations.module';
export { RecommendationsService } from './application/recommendations.service';
export type { Recommendation } from './domain/similarity';
