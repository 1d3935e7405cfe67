// @hey-api/openapi-ts configuration (package.json pins the version): the
// types, the SDK (one function per operation) and the bundled fetch
// client, generated into src/client/ (not committed) from the committed
// document. `npm run generate`.
import { defineConfig } from "@hey-api/openapi-ts";

export default defineConfig({
  input: "../../openapi/openapi.json",
  output: { path: "src/client" },
  plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
});
