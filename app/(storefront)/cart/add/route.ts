import { handleAddForm } from "@/lib/cart/forms";

export const POST = handleAddForm;
