-- A listing update calls refresh_product_search only when some product's search row is affected.
-- Called with no product, it still planned its four statements each time (about 1.5 ms): most
-- listing updates (an inventory batch that keeps listings in stock) change nothing it reads.
CREATE OR REPLACE FUNCTION listings_refresh_search_both() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  ids := ARRAY(
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
    WHERE n.product_id IS DISTINCT FROM o.product_id);
  IF cardinality(ids) > 0 THEN
    PERFORM refresh_product_search(ids);
  END IF;
  RETURN NULL;
END $$;
