-- A listing update refreshes its product's search row only when something the row is made of
-- changed: the product, status, price, condition, backorder, whether it holds stock, or its age
-- (the order of the offer arrays). A stock change that keeps a listing in stock (an inventory
-- batch, a sale of one of many units) no longer recomputes the product's search row.
CREATE OR REPLACE FUNCTION listings_refresh_search_both() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_product_search(ARRAY(
    SELECT n.product_id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.product_id IS DISTINCT FROM o.product_id
       OR n.status IS DISTINCT FROM o.status
       OR n.price_cents IS DISTINCT FROM o.price_cents
       OR n.condition IS DISTINCT FROM o.condition
       OR n.allow_backorder IS DISTINCT FROM o.allow_backorder
       OR (n.quantity > 0) IS DISTINCT FROM (o.quantity > 0)
       OR n.created_at IS DISTINCT FROM o.created_at
    UNION
    SELECT o.product_id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.product_id IS DISTINCT FROM o.product_id));
  RETURN NULL;
END $$;
