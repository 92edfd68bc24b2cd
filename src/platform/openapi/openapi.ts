import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { completeOpenApiDocument } from './complete-document';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Multi-entity accounting API')
    .setDescription(
      'Books of many companies (Entities) grouped in Organizations. Errors use the envelope ' +
        '`{ requestId, statusCode, code, message, params }`; clients match on `code`.',
    )
    .setVersion('0.1.0')
    .addCookieAuth('accounting.sid', { type: 'apiKey', in: 'cookie', name: 'accounting.sid' }, 'session')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'apiKey')
    .build();
  return completeOpenApiDocument(SwaggerModule.createDocument(app, config));
}

/** The document at /api/docs-json (and -yaml); Swagger UI at /api/docs when `ui` (OPENAPI_UI). */
export function setUpOpenApi(app: INestApplication, ui: boolean): void {
  SwaggerModule.setup('api/docs', app, () => buildOpenApiDocument(app), {
    swaggerUiEnabled: ui,
    jsonDocumentUrl: 'api/docs-json',
    yamlDocumentUrl: 'api/docs-yaml',
  });
}
