import type { Endpoint } from "@/lib/http/describe";
import { addCartLineEndpoint, getCartEndpoint, removeCartLineEndpoint, updateCartLineEndpoint } from "./cart";
import { checkoutEndpoint } from "./checkout";
import { createReturnEndpoint, getOrderEndpoint, getReturnEndpoint, listOrdersEndpoint, listReturnsEndpoint } from "./orders";
import { getProfileEndpoint } from "./profile";

/** Every operation of the buyer API (/api/v1/buyer): the routes use them, openapi.json lists them. */
export const BUYER_ENDPOINTS = [
  getProfileEndpoint,
  getCartEndpoint,
  addCartLineEndpoint,
  updateCartLineEndpoint,
  removeCartLineEndpoint,
  checkoutEndpoint,
  listOrdersEndpoint,
  getOrderEndpoint,
  createReturnEndpoint,
  listReturnsEndpoint,
  getReturnEndpoint,
] as Endpoint[];
