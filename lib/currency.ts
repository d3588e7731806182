/** The marketplace's one currency (ISO 4217): every amount is integer cents of it. */
export const CURRENCY = "USD";
