package dev.distlock.aop;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.PropertyResolver;
import org.springframework.util.StringUtils;

import dev.distlock.DistributedLock;
import dev.distlock.InvalidLockDefinitionException;

/**
 * Finds and parses the {@link DistributedLock @DistributedLock} of a method, once per method and
 * target class; "no annotation" is cached too. Parsing resolves {@code ${...}} placeholders,
 * parses the durations, checks the key expression and the return type, and throws
 * {@link InvalidLockDefinitionException} on any problem so that it surfaces at startup.
 */
public class LockDefinitionSource {

	private static final Object NO_LOCK = new Object();

	private final Map<MethodClassKey, Object> definitions = new ConcurrentHashMap<>(256);

	private final LockKeyEvaluator keyEvaluator;

	private final PropertyResolver placeholders;

	/**
	 * Creates a source.
	 * @param keyEvaluator checks key expressions
	 * @param placeholders resolves {@code ${...}} placeholders in the annotation's attributes
	 */
	public LockDefinitionSource(LockKeyEvaluator keyEvaluator, PropertyResolver placeholders) {
		this.keyEvaluator = keyEvaluator;
		this.placeholders = placeholders;
	}

	/**
	 * Returns the lock of a method called on a target class.
	 * @param method the invoked method
	 * @param targetClass the class of the target, or {@code null} if unknown
	 * @return the lock, or {@code null} if the method is not annotated
	 * @throws InvalidLockDefinitionException if the annotation is malformed
	 */
	public @Nullable LockDefinition find(Method method, @Nullable Class<?> targetClass) {
		MethodClassKey cacheKey = new MethodClassKey(method, targetClass);
		Object definition = this.definitions.get(cacheKey);
		if (definition == null) {
			LockDefinition parsed = parse(method, targetClass);
			definition = (parsed != null) ? parsed : NO_LOCK;
			this.definitions.put(cacheKey, definition);
		}
		return (definition != NO_LOCK) ? (LockDefinition) definition : null;
	}

	private @Nullable LockDefinition parse(Method method, @Nullable Class<?> targetClass) {
		Method specificMethod = AopUtils.getMostSpecificMethod(method, targetClass);
		DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(specificMethod, DistributedLock.class);
		if (annotation == null && specificMethod != method) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
		}
		if (annotation == null) {
			return null;
		}
		String key = resolve(specificMethod, "key", annotation.key());
		if (!StringUtils.hasText(key)) {
			throw new InvalidLockDefinitionException(specificMethod,
					"the key is empty; give a SpEL key expression such as key = \"'lock:sku:' + #skuId\"", null);
		}
		this.keyEvaluator.check(specificMethod, (targetClass != null) ? targetClass : method.getDeclaringClass(), key);
		LockReturnTypes.check(specificMethod);
		Duration waitTime = duration(specificMethod, "waitTime", annotation.waitTime(), true);
		Duration leaseTime = duration(specificMethod, "leaseTime", annotation.leaseTime(), false);
		return new LockDefinition(specificMethod, key, waitTime, leaseTime);
	}

	private @Nullable Duration duration(Method method, String attribute, String value, boolean zeroAllowed) {
		String resolved = resolve(method, attribute, value).trim();
		if (resolved.isEmpty()) {
			return null;
		}
		Duration duration;
		try {
			duration = DurationStyle.detectAndParse(resolved);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidLockDefinitionException(method, attribute + " \"" + value + "\" is not a duration; use "
					+ "a value such as \"500ms\", \"5s\", \"1m\" or \"PT5S\"", ex);
		}
		if (duration.isNegative() || (!zeroAllowed && duration.toMillis() < 1)) {
			throw new InvalidLockDefinitionException(method, attribute + " \"" + value + "\" must be "
					+ (zeroAllowed ? "zero or positive" : "at least 1ms"), null);
		}
		return duration;
	}

	private String resolve(Method method, String attribute, String value) {
		try {
			return this.placeholders.resolveRequiredPlaceholders(value);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidLockDefinitionException(method,
					attribute + " \"" + value + "\" has a placeholder that cannot be resolved: " + ex.getMessage(), ex);
		}
	}

}
