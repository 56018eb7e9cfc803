package dev.distlock.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Qualifier for the
 * {@link org.springframework.data.redis.connection.RedisConnectionFactory
 * RedisConnectionFactory} that distlock should use when the application has several, as
 * Spring Boot's {@code @FlywayDataSource} does for Flyway. A factory annotated with it is
 * used even when another one is {@code @Primary}:
 *
 * <pre class="code">
 * &#064;Bean
 * &#064;DistributedLockConnectionFactory
 * LettuceConnectionFactory lockRedis() { ... }
 * </pre>
 *
 * Without it, distlock uses the only factory or the {@code @Primary} one.
 */
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface DistributedLockConnectionFactory {

}
