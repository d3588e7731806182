export { requestReturn } from "./request";
export { isReturnMove, moveReturn, RETURN_MOVES, type ReturnMove } from "./moves";
export { getBuyerReturn, listBuyerReturns, listDeskReturns, type DeskReturn } from "./queries";
