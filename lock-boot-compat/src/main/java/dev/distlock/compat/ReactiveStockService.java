package dev.distlock.compat;

import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.stereotype.Service;

import dev.distlock.DistributedLock;

/**
 * The counts of {@link StockService}, in a reactive pipeline. Reactive grants cannot wait
 * for replicas to acknowledge them, so the application has this service only where
 * {@code distlock.replication.min-replicas-acked} is 0, as distlock requires.
 */
@Service
@ConditionalOnProperty(name = "distlock.replication.min-replicas-acked", havingValue = "0", matchIfMissing = true)
public class ReactiveStockService {

	private final ReactiveStringRedisTemplate redis;

	ReactiveStockService(ReactiveStringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Adds one to an item's count, under the item's lock, held until the returned
	 * {@link Mono} completes.
	 * @param sku the item
	 * @return the new count
	 */
	@DistributedLock(key = "'compat:sku:' + #sku", name = "stock", waitTime = "10s")
	public Mono<Long> increment(String sku) {
		String key = StockService.countKey(sku);
		return this.redis.opsForValue()
			.get(key)
			.map(Long::parseLong)
			.defaultIfEmpty(0L)
			.map((count) -> count + 1)
			.flatMap((next) -> this.redis.opsForValue().set(key, Long.toString(next)).thenReturn(next));
	}

}
