import type { NextResponse } from "next/server";
import { seeOther } from "@/lib/http/form-answer";
import type { CartNotice } from "@/lib/schemas/cart-forms";

/** A cart form's answer: 303 to the cart page, with a notice naming what happened. */
export function redirectToCart(notice: CartNotice): NextResponse {
  return seeOther(`/cart?notice=${notice}`);
}
