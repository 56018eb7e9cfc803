package dev.distlock.topology.contract;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A user's application: Spring Boot with distlock auto-configured, and a {@link SkuStock}
 * whose methods are locked per SKU.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class ShopApplication {

	@Bean
	SkuStock skuStock(StringRedisTemplate redis) {
		return new SkuStock(redis);
	}

}
