import { NextResponse } from "next/server";
import type { CartNotice } from "@/lib/schemas/cart-forms";

/** A cart form's answer: 303 to the cart page, with a notice naming what happened. */
export function redirectToCart(notice: CartNotice): NextResponse {
  return new NextResponse(null, { status: 303, headers: { Location: `/cart?notice=${notice}`, "Cache-Control": "no-store" } });
}
