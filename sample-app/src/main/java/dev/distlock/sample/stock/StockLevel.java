package dev.distlock.sample.stock;

/**
 * The stock of one SKU.
 *
 * @param skuId the SKU
 * @param quantity items in stock
 */
public record StockLevel(long skuId, long quantity) {

}
