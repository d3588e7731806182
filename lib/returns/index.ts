export { requestReturn } from "./request";
export { isReturnMove, moveReturn, RETURN_MOVES, type ReturnMove } from "./moves";
export { getBuyerReturn, getDeskReturn, listBuyerReturns, listDeskReturns, storeOfReturn, type DeskReturn } from "./queries";
