import { defineConfig } from "prisma/config";

// Used by `prisma generate` (and `prisma migrate deploy` where the schema engine is available).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/unused" },
});
