/* test_common_python_env.c — which programs are Python, and the environment set for them: the stub
 * preloaded first, the user's own settings kept, a missing stub named. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/python_env.h"

static void which_programs(void)
{
	CHECK(gl_python_program("python3"));
	CHECK(gl_python_program("/opt/venv/bin/python3.11"));
	CHECK(gl_python_program("python"));
	CHECK(!gl_python_program("./va"));
	CHECK(!gl_python_program("/usr/bin/ipython3")); /* IPython is started through python3 -m IPython */
	CHECK(!gl_python_program(NULL));
}

static void environment(void)
{
	struct gl_err err = {0};
	char dir[] = "/tmp/gl_pyenv_XXXXXX", stub[64], want[96];
	CHECK(mkdtemp(dir) != NULL);
	CHECK_EQ(gl_python_env_apply(dir, &err), GL_EENV); /* no stub there yet */
	CHECK(strstr(err.msg, "libnvJitLink.so.13") && strstr(err.msg, dir));
	snprintf(stub, sizeof stub, "%s/libnvJitLink.so.13", dir);
	FILE *f = fopen(stub, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	setenv("LD_PRELOAD", "libfoo.so", 1);
	unsetenv("PYTHONWARNINGS");
	unsetenv("CUPY_COMPILE_WITH_PTX");
	setenv("CUPY_ACCELERATORS", "cub", 1); /* the user's choice stays */
	unsetenv("CUPY_CACHE_IN_MEMORY");
	gl_err_clear(&err);
	CHECK_EQ(gl_python_env_apply(dir, &err), GL_OK);
	snprintf(want, sizeof want, "%s:libfoo.so", stub);
	CHECK_STR(getenv("LD_PRELOAD"), want);
	CHECK_STR(getenv("PYTHONWARNINGS"), "ignore:libnvJitLink:RuntimeWarning");
	CHECK_STR(getenv("CUPY_COMPILE_WITH_PTX"), "1");
	CHECK_STR(getenv("CUPY_ACCELERATORS"), "cub");
	CHECK_STR(getenv("CUPY_CACHE_IN_MEMORY"), "1");
	CHECK_EQ(gl_python_env_apply(dir, &err), GL_OK); /* twice adds nothing */
	CHECK_STR(getenv("LD_PRELOAD"), want);
	unlink(stub);
	rmdir(dir);
}

int main(void)
{
	which_programs();
	environment();
	CHECK_DONE();
}
