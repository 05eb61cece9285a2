// Generates everything in generated/ from the local contract. Never edit generated/ by hand:
// change openapi/openapi.yaml and run `npm run generate`.
import { defineConfig } from '@hey-api/openapi-ts';

export default defineConfig({
  input: './openapi/openapi.yaml',
  output: {
    path: './generated',
    // Node runs the TypeScript sources directly (type stripping): imports need their extension.
    importFileExtension: '.ts',
  },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', 'zod', { name: '@hey-api/sdk', validator: true }],
});
