import NextAuth from "next-auth";
import { authOptions } from "@/lib/http/session";

// next-auth's own endpoints (/api/auth/session, /csrf, /signout, ...) over the same session
// cookie; signing in happens through our HTML form posts (lib/http/session.ts says why).
const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
