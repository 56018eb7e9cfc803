package dev.distlock.sample.orders;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the close-expired-orders job ({@code sample.orders.*}). Its schedule is the cron
 * expression {@code sample.orders.close-cron}, read by {@code @Scheduled} itself.
 *
 * @param unpaidMaxAge how long an order may stay unpaid before the job closes it
 */
@ConfigurationProperties("sample.orders")
public record OrderProperties(@DefaultValue("15m") Duration unpaidMaxAge) {

}
