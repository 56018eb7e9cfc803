package dev.distlock.sample.orders;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Turns on scheduling for {@link CloseExpiredOrdersJob} and binds
 * {@link OrderProperties}.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@EnableConfigurationProperties(OrderProperties.class)
class OrdersConfiguration {

}
