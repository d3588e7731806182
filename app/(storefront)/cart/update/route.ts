import { handleUpdateForm } from "@/lib/cart/forms";

export const POST = handleUpdateForm;
