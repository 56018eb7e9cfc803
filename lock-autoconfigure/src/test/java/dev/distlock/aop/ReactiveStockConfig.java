package dev.distlock.aop;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * The {@link ReactiveStock} beans, on the application's reactive Redis connection.
 */
@Configuration(proxyBeanMethods = false)
class ReactiveStockConfig {

	@Bean
	ReactiveStock reactiveStock(ReactiveRedisConnectionFactory connectionFactory) {
		return new ReactiveStock(new ReactiveStringRedisTemplate(connectionFactory));
	}

	@Bean
	ReactiveStock.Nested nestedReactiveStock(ReactiveStock reactiveStock) {
		return new ReactiveStock.Nested(reactiveStock);
	}

}
